import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { expect, it } from 'vitest'

const entry = fileURLToPath(new URL('../src/index.ts', import.meta.url))
// 8 kB until trace context (on by default, issue 31) took the last 30 bytes of it; 8.5 kB until
// `meta` gave every declared header a field and bodies their declared media type (issue 50):
// the tables of response headers and request media types generated from the spec.
const budgetBytes = 9 * 1024

/** Bundles `contents` (importing the package source) for browsers, minified. */
async function bundle(contents: string) {
  const result = await build({
    stdin: { contents, resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  const output = Object.values(result.metafile.outputs)[0]
  const included = Object.entries(output?.inputs ?? {})
    .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
    .map(([input]) => input)
  return { code: result.outputFiles[0]?.contents ?? new Uint8Array(), included }
}

it('stays under 9 kB minified and gzipped, openapi-fetch included, with nothing Node-only', async () => {
  const { code, included } = await bundle(`export * from ${JSON.stringify(entry)}`)
  expect(included.some((input) => input.includes('openapi-fetch'))).toBe(true)
  // The 50 kB bundled spec must never be pulled in.
  expect(included.filter((input) => /spec\.js|openapi\.json/.test(input))).toEqual([])
  expect(gzipSync(code).byteLength).toBeLessThan(budgetBytes)
})

it('is tree-shakable: one middleware alone leaves openapi-fetch and the rest out', async () => {
  const { included } = await bundle(`export { retry } from ${JSON.stringify(entry)}`)
  expect(included.filter((input) => input.includes('openapi-fetch'))).toEqual([])
  expect(included.filter((input) => /deprecation|paginate|rate-limit/.test(input))).toEqual([])
  expect(included.some((input) => input.endsWith('middleware/retry.ts'))).toBe(true)
})
