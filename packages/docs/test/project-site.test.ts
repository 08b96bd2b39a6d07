/**
 * The built docs as GitHub Pages hosts a project site, `https://<owner>.github.io/<repo>/`:
 * dist/ served unchanged under `/petstore/` by a plain static server, in headless Chromium.
 * Every request the page makes answers 2xx, every link stays under the sub-path (or leaves for
 * another site on purpose), the menu navigates by hash and a reload keeps the place, the try-it
 * console lists the spec's servers (not the Pages host) and sends a request to a real API, and
 * the changelog page loads with its Atom feed linked and fetchable.
 */
import { type RunningPetstore, startPetstore } from '@petstore/server'
import type { Browser, Page, Response } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { changelogFeed, changelogPage } from '../src/changelog-page.js'
import { sampleBaseUrl } from '../src/code-samples.js'
import { listOperations } from '../src/openapi.js'
import {
  checkRecord,
  descriptionSections,
  goToOperation,
  type OpenedPage,
  openDocs,
  screenshot,
  tryIt,
} from './docs-page.js'
import { connectChromium, distDir, type Served, serveStatic, spec } from './helpers.js'

const mount = '/petstore/'
/** The spec's first operation: where the menu and the console go. */
const operation = listOperations(spec)[0]?.operation as {
  operationId: string
  summary: string
  tags: string[]
}
const [tag = '', summary, operationId] = [
  operation.tags[0],
  operation.summary,
  operation.operationId,
]
const route = `#/${tag}/${operationId.toLowerCase()}`

let browser: Browser
let served: Served
let site: string
let petstore: RunningPetstore
let apiKey: string

beforeAll(async () => {
  browser = await connectChromium()
  served = await serveStatic(distDir, mount)
  site = `${served.url}${mount}`
  petstore = await startPetstore()
  apiKey = await petstore.issueKey({ plan: 'free' })
})

afterAll(async () => {
  await browser?.close()
  await served?.close()
  await petstore?.close()
})

interface Responses {
  responses: Response[]
  failed: string[]
}

/** Opens the docs at `url`, recording every response and every request that got none. */
async function open(url: string): Promise<OpenedPage & Responses> {
  const record: Responses = { responses: [], failed: [] }
  const opened = await openDocs(browser, url, 'light', (page) => {
    page.on('response', (response) => record.responses.push(response))
    page.on('requestfailed', (request) =>
      record.failed.push(`${request.url()}: ${request.failure()?.errorText}`),
    )
  })
  return { ...opened, ...record }
}

/** Every request answered, 2xx. */
function checkResponses(record: Responses): void {
  expect(record.responses.length).toBeGreaterThan(0)
  const not2xx = record.responses
    .filter((response) => response.status() < 200 || response.status() > 299)
    .map((response) => `${response.status()} ${response.request().method()} ${response.url()}`)
  expect(not2xx).toEqual([])
  expect(record.failed).toEqual([])
}

/** The heading of `title` is on screen, near the top. */
async function scrolledTo(page: Page, title: string): Promise<void> {
  const heading = page.locator('h2', { hasText: title }).first()
  await expect.poll(() => heading.isVisible(), { message: title }).toBe(true)
  await expect
    .poll(() => heading.evaluate((h) => h.getBoundingClientRect().top), { message: title })
    .toBeLessThan(300)
}

describe(`dist/ served at ${mount}, as a GitHub Pages project site`, () => {
  it('answers every request 2xx, and every link stays on the site or leaves on purpose', async () => {
    const opened = await open(site)
    const { page } = opened
    // The links as the browser resolves them against the page's address.
    const links = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLAnchorElement>('a[href], link[href]')].map(
        (link) => link.href,
      ),
    )
    const sameOrigin = links.filter((href) => new URL(href).origin === served.url)
    const outside = sameOrigin.filter((href) => !new URL(href).pathname.startsWith(mount))
    expect(outside).toEqual([])
    const documents = [...new Set(sameOrigin.map((href) => href.split('#')[0] as string))]
    expect(documents).toEqual(
      expect.arrayContaining([site, `${site}${changelogPage}`, `${site}${changelogFeed}`]),
    )
    for (const document of documents) {
      const status = await page.evaluate(async (url) => (await fetch(url)).status, document)
      expect(status, document).toBe(200)
    }
    const elsewhere = links.filter((href) => new URL(href).origin !== served.url)
    for (const href of elsewhere) expect(href, href).toMatch(/^(https:|data:)/)
    checkResponses(opened)
    checkRecord(opened.record)
    await page.context().close()
  })

  it('navigates from the menu by hash, and a reload keeps the place', async () => {
    const opened = await open(site)
    const { page } = opened
    const menu = page.locator('[data-component-name="Menu/MenuItem"] a')
    const section = descriptionSections().at(-1) as string
    await menu.filter({ hasText: section }).first().click()
    await page.waitForURL(new RegExp(`^${site}#/section/`))
    await scrolledTo(page, section)

    await menu.filter({ hasText: new RegExp(`^${tag}$`) }).click()
    await menu.filter({ hasText: summary }).first().click()
    await page.waitForURL(`${site}${route}`)
    await scrolledTo(page, summary)
    await screenshot(page, 'project-site-menu')

    await page.reload()
    await page.locator('.ps-tryit-toggle').waitFor()
    expect(page.url()).toBe(`${site}${route}`)
    await scrolledTo(page, summary)
    checkResponses(opened)
    checkRecord(opened.record)
    await page.context().close()
  })

  it("offers the spec's servers in the console, not the Pages host, and sends to the API", async () => {
    const opened = await open(site)
    const { page } = opened
    await goToOperation(page, operation)
    await page.locator('.ps-tryit-toggle').click()
    const panel = page.getByRole('complementary', { name: 'Try it console' })
    const servers = await panel
      .locator('datalist#ps-tryit-servers option')
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value))
    expect(servers).toEqual((spec.servers ?? []).map((server) => server.url))
    expect(await panel.locator('input[name=baseUrl]').inputValue()).toBe(sampleBaseUrl(spec))

    // The reader points the console at an API that answers: the service on this machine.
    await panel.locator('input[name=baseUrl]').fill(`${petstore.url}/v1`)
    expect(await tryIt(page, operationId, apiKey)).toMatch(/^2\d\d/)
    // From another origin, a merge patch with If-Match needs the API's preflight to allow both.
    expect(await tryIt(page, 'createPet', apiKey)).toMatch(/^201 /)
    const created = JSON.parse((await panel.locator('.ps-tryit-body').textContent()) ?? '')
    await panel.locator('select[name=operation]').selectOption('updatePet')
    await panel.locator('input[data-param="petId"]').fill(String(created.id))
    await panel.getByRole('button', { name: 'Last ETag' }).click()
    expect(await panel.locator('input[data-param="If-Match"]').inputValue()).toMatch(/^"/)
    expect(await tryIt(page, 'updatePet', apiKey)).toMatch(/^200 /)
    const sent = opened.responses.filter((response) =>
      response.url().startsWith(`${petstore.url}/v1/`),
    )
    expect(sent.filter((response) => response.ok()).length).toBeGreaterThan(0)
    const patches = sent.filter((response) => response.request().method() === 'PATCH')
    const sentHeaders = await Promise.all(
      patches.map((response) => response.request().allHeaders()),
    )
    expect(sentHeaders, 'a conditional merge patch reached the API').toContainEqual(
      expect.objectContaining({
        'content-type': 'application/merge-patch+json',
        'if-match': expect.stringMatching(/^"/),
      }),
    )
    await screenshot(page, 'project-site-try-it')
    checkResponses(opened)
    checkRecord(opened.record)
    await page.context().close()
  })

  it('opens the changelog, whose Atom feed is linked and served', async () => {
    const opened = await open(site)
    const { page } = opened
    await page.getByRole('link', { name: 'Changelog', exact: true }).first().click()
    await page.waitForURL(`${site}${changelogPage}`)
    await expect.poll(() => page.locator('section h2').count()).toBeGreaterThan(0)
    const feedHref = await page
      .locator('link[rel="alternate"][type="application/atom+xml"]')
      .evaluate((link) => (link as HTMLLinkElement).href)
    expect(feedHref).toBe(`${site}${changelogFeed}`)
    const feed = await page.evaluate(async (url) => {
      const response = await fetch(url)
      const xml = new DOMParser().parseFromString(await response.text(), 'application/xml')
      const alternates = [...xml.querySelectorAll('entry > link[rel="alternate"]')].map(
        (link) => new URL(link.getAttribute('href') ?? '', url).href,
      )
      return {
        status: response.status,
        root: xml.documentElement.localName,
        errors: xml.getElementsByTagName('parsererror').length,
        alternates,
      }
    }, feedHref)
    expect(feed).toMatchObject({ status: 200, root: 'feed', errors: 0 })
    expect(feed.alternates.length).toBeGreaterThan(0)
    for (const alternate of feed.alternates) {
      expect(alternate).toMatch(new RegExp(`^${site}${changelogPage}#`))
    }
    await screenshot(page, 'project-site-changelog')
    await page.getByRole('link', { name: 'API documentation' }).click()
    await page.waitForURL(site)
    checkResponses(opened)
    checkRecord(opened.record)
    await page.context().close()
  })
})
