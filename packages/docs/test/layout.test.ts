/**
 * What the console adds never covers Redoc's page, and with it open the page's text keeps a
 * readable width; the sidebar's sunset badge shows its whole date, search snippets keep the
 * spaces of wrapped descriptions, and the servers menu shows their descriptions as Markdown: at
 * desktop and phone widths, light and dark, as boxes and visible text read from Chromium.
 * Screenshots of each go to test-output/ for a person to look at.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inlinePlainText, inlineSegments } from '../src/browser/inline-markdown.js'
import { sunsetBadge } from '../src/deprecation.js'
import { listOperations } from '../src/openapi.js'
import { searchFor } from './docs-page.js'
import { connectChromium, distDir, outputDir, type Served, serveStatic, spec } from './helpers.js'

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
  browser = await connectChromium()
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
  height = 844,
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height }, colorScheme })
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

/** The narrowest the page's text may get with the console open: about 60 characters a line. */
const minTextWidth = 480

const operations = listOperations(spec).map(({ operation }) => ({
  route: `#/${(operation as { tags?: string[] }).tags?.[0]}/${operation.operationId?.toLowerCase()}`,
  operationId: operation.operationId as string,
  summary: operation.summary as string,
}))

describe.each([
  [1280, 800],
  [1024, 768],
] as const)('at %i x %i with the console open', (width, height) => {
  // One page for every operation, its route changed in place: a page load per operation cost
  // more than the rest of the docs suite.
  let page: Page
  beforeAll(async () => {
    page = await open(width, 'light', operations[0]?.route, height)
    await page.locator('.ps-tryit-toggle').click()
  })
  afterAll(() => page?.context().close())

  it.each(operations)('$operationId keeps its text readable', async ({ route, summary }) => {
    await page.evaluate((hash) => {
      window.location.hash = hash
    }, route)
    const panel = (await page.locator('#ps-tryit').boundingBox()) as Box
    const heading = page.locator('#redoc h2', { hasText: summary }).first()
    await heading.scrollIntoViewIfNeeded()
    // The content box of the operation's text column: Redoc's middle panel less its padding.
    const column = await heading.evaluate((element) => {
      const middle = element.closest('[data-testid="middle-panel"]') as HTMLElement
      const box = middle.getBoundingClientRect()
      const style = getComputedStyle(middle)
      const left = Number.parseFloat(style.paddingLeft)
      const right = Number.parseFloat(style.paddingRight)
      return { x: box.x + left, y: box.y, width: box.width - left - right, height: box.height }
    })
    expect(column.width).toBeGreaterThanOrEqual(minTextWidth)
    expect(intersects(column, panel)).toBe(false)

    // The title's text as laid out: a box per word, and the lines the whole title takes.
    const title = await heading.evaluate((element, text) => {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT)
      let node = walker.nextNode()
      while (node && !(node.textContent ?? '').includes(text)) node = walker.nextNode()
      if (!node) return undefined
      const start = (node.textContent ?? '').indexOf(text)
      const range = document.createRange()
      const rects = (from: number, to: number) => {
        range.setStart(node as Text, start + from)
        range.setEnd(node as Text, start + to)
        return [...range.getClientRects()].filter((rect) => rect.width > 0)
      }
      const words = [...text.matchAll(/\S+/g)].map((word) => ({
        word: word[0],
        boxes: rects(word.index, word.index + word[0].length).length,
      }))
      const all = rects(0, text.length)
      const box = range.getBoundingClientRect()
      return {
        words,
        width: all.reduce((sum, rect) => sum + rect.width, 0),
        height: box.height,
        lineHeight: Number.parseFloat(getComputedStyle(element).lineHeight),
      }
    }, summary)
    expect(title).toBeDefined()
    for (const { word, boxes } of title?.words ?? []) expect(boxes, word).toBe(1)
    // A title that takes less than half the column (the other half is Redoc's Copy button and
    // room to spare) stays on one line: its text box is one line high.
    if ((title?.width ?? 0) <= minTextWidth / 2) {
      expect(title?.height).toBeLessThan((title?.lineHeight ?? 0) * 1.5)
    }

    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    )
    expect(overflow).toBeLessThanOrEqual(0)
    await page.screenshot({ path: `${outputDir}/layout-try-it-${width}-${summary}.png` })
  })
})

describe.each(['light', 'dark'] as const)('%s, the servers menu', (colorScheme) => {
  const servers = spec.servers ?? []

  it('shows each server description as Markdown, code spans as code', async () => {
    const page = await open(1280, colorScheme, operations[0]?.route)
    const menu = page
      .locator('.panel-request-samples [data-component-name="Panel/PanelHeader"]')
      .first()
      .locator('button[aria-haspopup="menu"]')
      .first()
    await menu.scrollIntoViewIfNeeded()
    await menu.click()
    for (const { url, description = url } of servers) {
      const item = page.getByRole('menuitem').filter({ hasText: inlinePlainText(description) })
      await expect.poll(() => item.count(), { message: description }).toBe(1)
      // biome-ignore lint/performance/useDomNodeTextContent: what the reader sees is the point
      const text = await item.innerText()
      expect(text).toContain(inlinePlainText(description))
      expect(text).not.toContain('`')
      const spans = inlineSegments(description).filter((segment) => segment.kind === 'code')
      const code = item.locator('code')
      await expect.poll(() => code.allInnerTexts()).toEqual(spans.map((span) => span.text))
      for (const box of await Promise.all((await code.all()).map((each) => each.boundingBox()))) {
        expect(box?.width).toBeGreaterThan(0)
      }
    }
    // The console's server suggestions cannot hold markup: they show the plain text.
    const labels = await page
      .locator('#ps-tryit-servers option')
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).label))
    expect(labels).toEqual(
      servers.map(({ url, description }) => (description ? inlinePlainText(description) : url)),
    )
    await page.screenshot({ path: `${outputDir}/layout-servers-${colorScheme}.png` })
    await page.context().close()
  })

  it('the spec has a server description with a code span, so the test above checks one', () => {
    expect(
      servers.some(({ description = '' }) =>
        inlineSegments(description).some((segment) => segment.kind === 'code'),
      ),
    ).toBe(true)
  })
})
