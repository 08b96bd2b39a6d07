// Loaded into a server under test with `node --import`: at exit, writes on stderr how many
// @opentelemetry modules the process loaded. They are CommonJS, so each one imported, from
// ESM or not, is in the require cache.
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
process.on('exit', () => {
  const loaded = Object.keys(require.cache).filter((path) => path.includes('@opentelemetry'))
  process.stderr.write(`opentelemetry modules loaded: ${loaded.length}\n`)
})
