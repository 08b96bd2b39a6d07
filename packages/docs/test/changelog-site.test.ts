/**
 * The changelog in headless Chromium, served as a static host serves dist/: reached from the
 * docs page by its visible link, every version visible as text, light and dark, desktop and
 * phone (screenshots in test-output/), and its Atom feed parsed by the browser's XML parser.
 */
import { fileURLToPath } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChangelog } from '../src/changelog.js'
import { entryTitle } from '../src/changelog-page.js'
import { checkRecord, openDocs } from './docs-page.js'
import {
  connectChromium,
  distDir,
  outputDir,
  recordPage,
  type Served,
  serveStatic,
} from './helpers.js'

const root = fileURLToPath(new URL('../../../', import.meta.url))
/** What the build read: the headings of the released versions (the unreleased one is dated by the build). */
const entries = readChangelog(root)

let browser: Browser
let served: Served

beforeAll(async () => {
  browser = await connectChromium()
  served = await serveStatic(distDir, '/docs/')
})

afterAll(async () => {
  await browser?.close()
  await served?.close()
})

describe('the changelog page', () => {
  it('is reached from the docs page by a visible link, and shows every version', async () => {
    const { page, record } = await openDocs(browser, `${served.url}/docs/`)
    const link = page.getByRole('link', { name: 'Changelog', exact: true }).first()
    await expect.poll(() => link.isVisible()).toBe(true)
    await link.click()
    await page.waitForURL(`${served.url}/docs/changelog.html`)
    const headings = await page.locator('section h2').allInnerTexts()
    expect(headings).toEqual(entries.map(entryTitle))
    for (const heading of headings) {
      await expect.poll(() => page.getByRole('heading', { name: heading }).isVisible()).toBe(true)
    }
    if (entries.some((entry) => !entry.released)) expect(headings[0]).toMatch(/^Unreleased/)
    await page.getByRole('link', { name: 'API documentation' }).click()
    await page.waitForURL(`${served.url}/docs/`)
    checkRecord(record)
    await page.context().close()
  })

  it.each([
    ['desktop', 1280, 'light'],
    ['desktop', 1280, 'dark'],
    ['mobile', 390, 'light'],
    ['mobile', 390, 'dark'],
  ] as const)(
    'fits a %s (%i px) in %s, following the colour scheme',
    async (device, width, colorScheme) => {
      const context = await browser.newContext({ viewport: { width, height: 844 }, colorScheme })
      const page = await context.newPage()
      const record = await recordPage(page)
      await page.goto(`${served.url}/docs/changelog.html`)
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
      const [red = 0, green = 0, blue = 0] = (background.match(/\d+/g) ?? []).map(Number)
      const brightness = (red + green + blue) / 3
      expect(colorScheme === 'dark' ? brightness < 100 : brightness > 155).toBe(true)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        width,
      )
      await page.screenshot({
        path: `${outputDir}/changelog-${device}-${colorScheme}.png`,
        fullPage: true,
      })
      checkRecord(record)
      await context.close()
    },
  )
})

describe('the Atom feed', () => {
  it('parses as Atom 1.0 with the feed’s and each version’s required elements', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${served.url}/docs/changelog.html`)
    const feed = await page.evaluate(async () => {
      const text = await (await fetch('changelog.atom')).text()
      const xml = new DOMParser().parseFromString(text, 'application/xml')
      const atom = 'http://www.w3.org/2005/Atom'
      const child = (parent: Element, name: string) =>
        [...parent.children].find((c) => c.namespaceURI === atom && c.localName === name)
      const feedElement = xml.documentElement
      return {
        error: xml.querySelector('parsererror')?.textContent ?? null,
        root: [feedElement.namespaceURI, feedElement.localName],
        head: ['id', 'title', 'updated', 'author'].map(
          (name) => child(feedElement, name)?.textContent ?? null,
        ),
        entries: [...feedElement.children]
          .filter((c) => c.localName === 'entry')
          .map((entry) => ({
            id: child(entry, 'id')?.textContent ?? null,
            title: child(entry, 'title')?.textContent ?? null,
            updated: child(entry, 'updated')?.textContent ?? null,
            link: child(entry, 'link')?.getAttribute('href') ?? null,
            content: child(entry, 'content')?.textContent ?? '',
          })),
      }
    })
    expect(feed.error).toBeNull()
    expect(feed.root).toEqual(['http://www.w3.org/2005/Atom', 'feed'])
    for (const value of feed.head) expect(value).toBeTruthy()
    expect(Date.parse(feed.head[2] ?? '')).not.toBeNaN()
    // The feed lists released versions only: an unreleased edit of the spec is on the page alone.
    const released = entries.filter((entry) => entry.released)
    expect(released.length).toBeGreaterThan(0)
    expect(feed.entries.map((entry) => entry.title)).toEqual(released.map(entryTitle))
    for (const entry of feed.entries) {
      expect(entry.id).toMatch(/^tag:[^,]+,\d{4}-\d\d-\d\d:changelog:/)
      expect(Date.parse(entry.updated ?? '')).not.toBeNaN()
      expect(entry.content).toMatch(/^<p>/)
      const link = await fetch(new URL(entry.link ?? '', `${served.url}/docs/changelog.atom`))
      expect(link.status).toBe(200)
    }
    expect(new Set(feed.entries.map((entry) => entry.id)).size).toBe(feed.entries.length)
    await context.close()
  })
})
