/**
 * The built site in headless Chromium, served as a static host would serve dist/ and as the
 * service serves it at /docs: everything a newcomer needs renders, search works, the try-it
 * console sends real requests, and the page requests nothing from any other host.
 */
import { type RunningPetstore, startPetstore } from '@petstore/server'
import type { Pet } from '@petstore/types'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sampleBaseUrl } from '../src/code-samples.js'
import {
  checkIntroduction,
  checkOperations,
  checkRecord,
  checkSearch,
  openDocs,
  screenshot,
  tryIt,
} from './docs-page.js'
import {
  connectChromium,
  createPetExample,
  distDir,
  type Served,
  serveStatic,
  spec,
} from './helpers.js'

let browser: Browser

beforeAll(async () => {
  browser = await connectChromium()
})

afterAll(async () => {
  await browser?.close()
})

function pageOf(opened: { page: Page }): Page {
  return opened.page
}

describe('dist/ served as static files', () => {
  let served: Served

  beforeAll(async () => {
    served = await serveStatic(distDir)
  })

  afterAll(async () => {
    await served?.close()
  })

  it('explains the API, finds operations by id and stays on this host', async () => {
    const { page, record } = await openDocs(browser, `${served.url}/`)
    await checkIntroduction(page)
    await page.evaluate(() => window.scrollTo(0, 0))
    await screenshot(page, 'static-light')
    await checkOperations(page)
    await screenshot(page, 'static-get-pet')
    await checkSearch(page, 'createPet', 'Add a pet')
    checkRecord(record)
    await page.context().close()
  })

  it('follows a dark colour scheme, console included', async () => {
    const opened = await openDocs(browser, `${served.url}/#/pets/createpet`, 'dark')
    const page = pageOf(opened)
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(
      true,
    )
    await page.locator('.ps-tryit-toggle').click()
    const background = await page
      .locator('#ps-tryit')
      .evaluate((panel) => getComputedStyle(panel).backgroundColor)
    const [red = 255, green = 255, blue = 255] = (background.match(/\d+/g) ?? []).map(Number)
    expect((red + green + blue) / 3).toBeLessThan(100)
    await screenshot(page, 'static-dark-try-it')
    checkRecord(opened.record)
    await page.context().close()
  })

  it('addresses the server the build named, in the console and the samples', async () => {
    const { page, record } = await openDocs(browser, `${served.url}/#/pets/listpets`)
    // A static host has no API: the samples and the console name the built server instead.
    await page.locator('html[data-ps-api-base-url]').waitFor({ state: 'attached' })
    const built = sampleBaseUrl(spec)
    expect(await page.locator('html').getAttribute('data-ps-api-base-url')).toBe(built)
    await page.locator('.ps-tryit-toggle').click()
    expect(await page.locator('input[name=baseUrl]').inputValue()).toBe(built)
    const sample = page.locator('.panel-request-samples pre').first()
    await sample.scrollIntoViewIfNeeded()
    expect(await sample.innerText()).toContain(built)
    checkRecord(record)
    await page.context().close()
  })
})

describe('dist/ below a mount path', () => {
  let served: Served

  beforeAll(async () => {
    served = await serveStatic(distDir, '/docs/')
  })

  afterAll(async () => {
    await served?.close()
  })

  it('offers the spec for download under the mount path, even opened without a slash', async () => {
    const { page, record } = await openDocs(browser, `${served.url}/docs`)
    expect(new URL(page.url()).pathname).toBe('/docs/')
    const downloads = await page.evaluate(async () => {
      const links = [
        ...document.querySelectorAll<HTMLAnchorElement>('a[href$=".json"], a[href$=".yaml"]'),
      ]
      const statuses: Record<string, number> = {}
      for (const link of links) statuses[link.pathname] = (await fetch(link.href)).status
      return statuses
    })
    expect(downloads).toEqual({ '/docs/openapi.json': 200, '/docs/openapi.yaml': 200 })
    checkRecord(record)
    await page.context().close()
  })
})

describe('the service’s /docs', () => {
  let petstore: RunningPetstore
  let apiKey: string

  beforeAll(async () => {
    petstore = await startPetstore({ docsDir: distDir })
    apiKey = await petstore.issueKey({ plan: 'free' })
  })

  afterAll(async () => {
    await petstore?.close()
  })

  it('explains the API, finds operations by id and stays on this host', async () => {
    const { page, record } = await openDocs(browser, `${petstore.url}/docs`)
    await checkIntroduction(page)
    await checkOperations(page)
    await checkSearch(page, 'createPet', 'Add a pet')
    checkRecord(record)
    await page.context().close()
  })

  it('runs every operation from the try-it console with a real key', async () => {
    const { page, record } = await openDocs(browser, `${petstore.url}/docs`)
    expect(await tryIt(page, 'createPet', apiKey)).toMatch(/^201/)
    const created = JSON.parse((await page.locator('.ps-tryit-body').textContent()) ?? '') as Pet
    expect(created).toMatchObject({ ...createPetExample, id: expect.any(Number) })
    expect(await tryIt(page, 'listPets', apiKey)).toMatch(/^200/)
    expect(await page.locator('.ps-tryit-headers').textContent()).toMatch(/x-ratelimit-remaining/i)
    expect(await tryIt(page, 'getPet', apiKey, { petId: String(created.id) })).toMatch(/^200/)
    expect(await page.locator('.ps-tryit-headers').textContent()).toMatch(/^sunset: /im)
    await screenshot(page, 'service-try-it')
    checkRecord(record)
    await page.context().close()
  })

  it('opens the pages its deprecation Link header points to', async () => {
    const response = await fetch(`${petstore.url}/v1/pets/1`, {
      headers: { authorization: `Bearer ${apiKey}` },
    })
    const targets = [...(response.headers.get('link') ?? '').matchAll(/<([^>]+)>;\s*rel="(\w+)"/g)]
      .filter(([, , rel]) => rel === 'deprecation' || rel === 'sunset')
      .map(([, target]) => new URL(target as string, petstore.url).href)
    expect(targets.length).toBeGreaterThan(0)
    const headings: Record<string, string> = {
      deprecation: 'Get a pet',
      sunset: 'Deprecation policy',
    }
    for (const target of targets) {
      const { page, record } = await openDocs(browser, target)
      const anchor = decodeURIComponent(new URL(target).hash)
      const heading = /getpet/i.test(anchor) ? headings.deprecation : headings.sunset
      const title = page.locator('h2', { hasText: heading as string }).first()
      await expect.poll(() => title.isVisible(), { message: anchor }).toBe(true)
      await expect
        .poll(() => title.evaluate((h) => h.getBoundingClientRect().top), { message: anchor })
        .toBeLessThan(500)
      checkRecord(record)
      await page.context().close()
    }
  })

  it('is the spec the service serves', async () => {
    const served = await (await fetch(`${petstore.url}/v1/openapi.json`)).json()
    expect(served).toEqual(spec)
  })
})
