/**
 * The source subpath (`@petstore/types/openapi/source`) is for the workspace's scripts, which
 * read the spec before anything is built; pnpm packs `publishConfig.exports` in place of
 * `exports`, so users get the same map without it. The two maps must not drift apart.
 */
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  exports: Record<string, unknown>
  publishConfig: { exports: Record<string, unknown> }
}

it('publishes the workspace exports without the ones that point at src/', () => {
  const sources = Object.entries(manifest.exports).filter(
    ([, target]) => typeof target === 'string' && target.startsWith('./src/'),
  )
  expect(sources).toEqual([['./openapi/source', './src/openapi.ts']])
  const published = Object.fromEntries(
    Object.entries(manifest.exports).filter(([subpath]) => subpath !== './openapi/source'),
  )
  expect(manifest.publishConfig.exports).toEqual(published)
})
