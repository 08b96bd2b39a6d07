/**
 * What a reader sees of `x-stability-level`: the site built from the spec, in headless Chromium.
 * Every operation's heading carries the badge of its level (`Beta` for the spec's store
 * operations) and no other; `stable` has none. A level the spec uses nowhere is given to one of its
 * stable operations first, so that every level is seen. The badge must be visible text in the
 * heading, not only data in the rendered spec.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { lifecycleOf } from '@petstore/types/openapi'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { buildSite } from '../src/build.js'
import { listOperations } from '../src/openapi.js'
import { stabilityBadges } from '../src/stability.js'
import { goToOperation, openDocs } from './docs-page.js'
import { connectChromium, type Served, serveStatic, spec } from './helpers.js'

const leveled = structuredClone(spec)
const levelOf = (operation: object): string => lifecycleOf(operation).stability ?? 'stable'
{
  const operations = listOperations(leveled)
  const used = new Set(operations.map(({ operation }) => levelOf(operation)))
  const stable = operations.filter(({ operation }) => levelOf(operation) === 'stable')
  const unused = Object.keys(stabilityBadges).filter((level) => !used.has(level))
  for (const [i, level] of unused.entries()) {
    const target = stable[i]?.operation
    if (target) target['x-stability-level'] = level
  }
}
const badgeNames = Object.values(stabilityBadges).map((badge) => badge.name)

let work: string
let served: Served
let browser: Browser

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'docs-stability-'))
  await buildSite(leveled, join(work, 'dist'), { changelog: [] })
  served = await serveStatic(join(work, 'dist'))
  browser = await connectChromium()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await served?.close()
  if (work !== undefined) await rm(work, { recursive: true, force: true })
})

it("shows each operation's level beside its heading, and nothing beside a stable one", async () => {
  const { page } = await openDocs(browser, `${served.url}/`)
  const seen = new Set<string>()
  for (const { operation } of listOperations(leveled)) {
    const level = levelOf(operation)
    const expected = stabilityBadges[level]?.name
    const heading = await goToOperation(page, operation)
    const tags = heading.locator('[data-component-name="Tag/Tag"]')
    await expect
      .poll(
        async () =>
          (await tags.allInnerTexts()).map((t) => t.trim()).filter((t) => badgeNames.includes(t)),
        { message: `${operation.operationId} (${level})` },
      )
      .toEqual(expected ? [expected] : [])
    if (expected) {
      const badge = tags.filter({ hasText: expected })
      expect(await badge.isVisible(), `${operation.operationId}: ${expected} badge visible`).toBe(
        true,
      )
    }
    seen.add(level)
  }
  expect([...seen].sort()).toEqual([...Object.keys(stabilityBadges), 'stable'].sort())
}, 120_000)
