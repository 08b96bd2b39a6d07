import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { expect, it } from 'vitest'

const budgetBytes = 8 * 1024

it('stays under 8 kB minified and gzipped, openapi-fetch included, with nothing Node-only', async () => {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  const code = result.outputFiles[0]?.contents ?? new Uint8Array()
  const inputs = Object.keys(result.metafile.inputs)
  expect(inputs.some((input) => input.includes('openapi-fetch'))).toBe(true)
  // The 50 kB bundled spec must never be pulled in.
  expect(inputs.filter((input) => /spec\.js|openapi\.json/.test(input))).toEqual([])
  expect(gzipSync(code).byteLength).toBeLessThan(budgetBytes)
})
