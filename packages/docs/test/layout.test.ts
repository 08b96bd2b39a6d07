/**
 * What the console adds never covers Redoc's page, the sidebar's sunset badge shows its whole
 * date, and search snippets keep the spaces of wrapped descriptions, at 1280 px and 390 px wide,
 * light and dark: boxes and visible text read from Chromium. Screenshots of each go to
 * test-output/ for a person to look at.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sunsetBadge } from '../src/deprecation.js'
import { listOperations } from '../src/openapi.js'
import { searchFor } from './docs-page.js'
import { distDir, launchChromium, outputDir, type Served, serveStatic, spec } from './helpers.js'

interface Box {
  x: number
  y: number
  width: number
  height: number
}

const intersects = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x - 0.5 &&
  inner.y >= outer.y - 0.5 &&
  inner.x + inner.width <= outer.x + outer.width + 0.5 &&
  inner.y + inner.height <= outer.y + outer.height + 0.5

const deprecated = listOperations(spec).find(({ operation }) => operation.deprecated)?.operation
/** The badge the sidebar shows beside the deprecated operation, e.g. `Sunset 5 Dec 2030`. */
const badgeText = sunsetBadge(String(deprecated?.['x-sunset']))

let browser: Browser
let served: Served

beforeAll(async () => {
  browser = await launchChromium()
  served = await serveStatic(distDir)
})

afterAll(async () => {
  await browser?.close()
  await served?.close()
})

async function open(
  width: number,
  colorScheme: 'light' | 'dark',
  route = '#/pets/createpet',
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 844 }, colorScheme })
  const page = await context.newPage()
  await page.goto(`${served.url}/${route}`)
  await page.locator('img[alt="redocly logo"]').first().waitFor({ state: 'attached' })
  await page.locator('.ps-tryit-toggle').waitFor()
  return page
}

describe.each(['light', 'dark'] as const)('%s', (colorScheme) => {
  it('on a phone, the Try it button leaves Redoc’s menu button free', async () => {
    const page = await open(390, colorScheme)
    const toggle = await page.locator('.ps-tryit-toggle').boundingBox()
    // Redoc's floating menu button: the only other button fixed to the viewport's bottom.
    const menu = await page.evaluate(() => {
      const fixed = [...document.querySelectorAll<HTMLElement>('#redoc button')].find((button) => {
        const box = button.getBoundingClientRect()
        return box.width > 0 && box.bottom > window.innerHeight - 120
      })
      const box = fixed?.getBoundingClientRect()
      return box && { x: box.x, y: box.y, width: box.width, height: box.height }
    })
    expect(toggle).not.toBeNull()
    expect(menu).toBeDefined()
    expect(intersects(toggle as Box, menu as Box)).toBe(false)
    await page.screenshot({ path: `${outputDir}/layout-mobile-${colorScheme}.png` })
    await page.context().close()
  })

  it('on a desktop, the open console leaves the samples column free', async () => {
    const page = await open(1280, colorScheme)
    await page.locator('.ps-tryit-toggle').click()
    const panel = await page.locator('#ps-tryit').boundingBox()
    const samples = page.locator('.panel-request-samples').first()
    await samples.scrollIntoViewIfNeeded()
    expect(intersects(panel as Box, (await samples.boundingBox()) as Box)).toBe(false)
    const background = await page
      .locator('#ps-tryit')
      .evaluate((element) => getComputedStyle(element).backgroundColor)
    const [red = 0, green = 0, blue = 0] = (background.match(/\d+/g) ?? []).map(Number)
    const brightness = (red + green + blue) / 3
    expect(colorScheme === 'dark' ? brightness < 100 : brightness > 155).toBe(true)
    await page.screenshot({ path: `${outputDir}/layout-desktop-${colorScheme}.png` })
    await page.context().close()
  })
})

const widths = [
  ['desktop', 1280],
  ['mobile', 390],
] as const

describe.each(['light', 'dark'] as const)('%s, the sidebar and search', (colorScheme) => {
  it.each(widths)('on a %s, the sunset badge shows its whole date', async (device, width) => {
    const page = await open(width, colorScheme, `#/pets/${deprecated?.operationId?.toLowerCase()}`)
    if (device === 'mobile')
      await page.getByRole('button', { name: 'Open navigation menu' }).click()
    const sidebar = page.locator('.menu-content').first()
    const badge = sidebar.locator('[data-component-name="Tag/Tag"]', { hasText: 'Sunset' })
    await badge.scrollIntoViewIfNeeded()
    await expect.poll(() => badge.isVisible()).toBe(true)
    expect(await badge.innerText()).toBe(badgeText)
    const clipped = await badge.evaluate(
      (tag) =>
        [tag, ...tag.querySelectorAll<HTMLElement>('*')].filter(
          (element) => element.scrollWidth > element.clientWidth + 0.5,
        ).length,
    )
    expect(clipped).toBe(0)
    const badgeBox = (await badge.boundingBox()) as Box
    expect(inside(badgeBox, (await sidebar.boundingBox()) as Box)).toBe(true)
    expect(inside(badgeBox, { x: 0, y: 0, width, height: 844 })).toBe(true)
    await page.screenshot({ path: `${outputDir}/layout-sidebar-${device}-${colorScheme}.png` })
    await page.context().close()
  })

  it('search snippets keep the space where a description was wrapped', async () => {
    const page = await open(1280, colorScheme)
    // createPet's description wraps after "retries" in spec/openapi.yaml.
    await searchFor(page, 'retries safe')
    const results = page.locator('[data-component-name="Search/SearchItem"]')
    await expect.poll(() => results.count()).toBeGreaterThan(0)
    const snippets = (await results.allInnerTexts()).join('\n')
    expect(snippets).toMatch(/retries\s+safe/)
    expect(snippets).not.toMatch(/retriessafe/)
    await page.screenshot({ path: `${outputDir}/layout-search-${colorScheme}.png` })
    await page.context().close()
  })
})
