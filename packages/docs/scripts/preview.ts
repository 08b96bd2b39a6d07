/**
 * `pnpm docs:preview`: serves dist/ alone, as a static host would, to check a static deploy.
 * PORT (4173; 0 for any free port) and HOST (127.0.0.1) choose where.
 */
import { existsSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { createStaticServer } from '../src/static-server.js'

const root = fileURLToPath(new URL('../dist/', import.meta.url))
if (!existsSync(`${root}index.html`)) {
  console.error('dist/index.html is missing: run `pnpm --filter @petstore/docs build` first')
  process.exit(1)
}
const port = Number(process.env.PORT ?? 4173)
const host = process.env.HOST ?? '127.0.0.1'
const server = createStaticServer({ root })
server.listen(port, host, () => {
  const { port: actual } = server.address() as AddressInfo
  console.log(`docs preview at http://${host}:${actual}/ (serving ${root}; Ctrl+C to stop)`)
})
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => server.close(() => process.exit(0)))
}
