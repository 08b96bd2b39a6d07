/**
 * What a reader sees of `x-stability-level`: the site built from a spec whose operations carry
 * levels, in headless Chromium. The badge must be visible text beside the operation's heading,
 * not only data in the rendered spec.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { buildSite } from '../src/build.js'
import { listOperations } from '../src/openapi.js'
import { goToOperation, openDocs } from './docs-page.js'
import { connectChromium, type Served, serveStatic, spec } from './helpers.js'

const levels = ['draft', 'beta', 'stable'] as const
const badge = { draft: 'Draft', beta: 'Beta' } as const

let work: string
let served: Served
let browser: Browser

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'docs-stability-'))
  const leveled = structuredClone(spec)
  listOperations(leveled).forEach(({ operation }, index) => {
    const level = levels[index]
    if (level !== undefined) operation['x-stability-level'] = level
  })
  await buildSite(leveled, join(work, 'dist'), { changelog: [] })
  served = await serveStatic(join(work, 'dist'))
  browser = await connectChromium()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await served?.close()
  if (work !== undefined) await rm(work, { recursive: true, force: true })
})

it('shows Draft and Beta beside their operations, and nothing beside a stable one', async () => {
  const { page } = await openDocs(browser, `${served.url}/`)
  const operations = listOperations(spec).slice(0, levels.length)
  for (const [index, { operation }] of operations.entries()) {
    const level = levels[index] as (typeof levels)[number]
    const heading = await goToOperation(page, operation)
    const section = page.locator(`[id$="/${operation.operationId?.toLowerCase()}"]`).first()
    for (const [shown, name] of Object.entries(badge)) {
      const text = section.getByText(name, { exact: true })
      const expected = shown === level
      await expect
        .poll(async () => (await text.count()) > 0 && (await text.first().isVisible()), {
          message: `${operation.operationId} (${level}): ${name} badge ${expected ? 'shown' : 'absent'}`,
        })
        .toBe(expected)
      if (!expected) continue
      const [badgeBox, headingBox] = [await text.first().boundingBox(), await heading.boundingBox()]
      expect(badgeBox, `${name} badge has a box`).not.toBeNull()
      expect(headingBox).not.toBeNull()
      // Beside the heading: on its line (or just above it, where Redoc puts badges).
      const gap = Math.abs((badgeBox?.y ?? 0) - (headingBox?.y ?? 0))
      expect(gap, `${name} badge is ${gap}px from ${operation.operationId}'s heading`).toBeLessThan(
        60,
      )
    }
  }
}, 120_000)
