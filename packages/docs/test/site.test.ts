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
import { listOperations } from '../src/openapi.js'
import {
  checkIntroduction,
  checkOperations,
  checkRecord,
  checkSearch,
  openDocs,
  screenshot,
  tryIt,
  tryItPanel,
} from './docs-page.js'
import {
  connectChromium,
  createPetExample,
  distDir,
  type Served,
  serveStatic,
  spec,
} from './helpers.js'
import { sampleFixtures } from './sample-fixtures.js'

const fixtures = sampleFixtures(spec)

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
    // Every operation, and the resources each needs, within a minute: more than a Free key may.
    apiKey = await petstore.issueKey({ plan: 'business' })
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

  it('runs every operation from the try-it console, each on resources made for it', async () => {
    const { page, record } = await openDocs(browser, `${petstore.url}/docs`)
    const api = { baseUrl: `${petstore.url}/v1`, apiKey }
    const panel = await tryItPanel(page)
    for (const entry of listOperations(spec)) {
      const operationId = entry.operation.operationId as string
      // What the console shows for the operation before the reader changes anything.
      await panel.locator('select[name=operation]').selectOption(operationId)
      const bodyField = panel.locator('textarea[name=body]')
      expect(await bodyField.isVisible(), `${operationId} shows a body`).toBe(
        entry.bodyMediaType !== undefined,
      )
      if (entry.bodyMediaType !== undefined) {
        await expect.poll(() => panel.getByText(`Body (${entry.bodyMediaType})`).count()).toBe(1)
        expect(JSON.parse(await bodyField.inputValue()), operationId).toEqual(entry.bodyExamples[0])
      }
      const request = await fixtures.prepare(api, entry)
      const parameters = Object.fromEntries(
        Object.entries({ ...request.path, ...request.query }).map(([name, value]) => [
          name,
          String(value),
        ]),
      )
      const body = request.body === undefined ? undefined : JSON.stringify(request.body, null, 2)
      const success = Object.keys(entry.operation.responses ?? {}).find((code) => /^2/.test(code))
      expect(await tryIt(page, operationId, apiKey, parameters, body), operationId).toMatch(
        new RegExp(`^${success} `),
      )
      const shown = (await page.locator('.ps-tryit-body').textContent()) ?? ''
      if (operationId === 'createPet') {
        expect(JSON.parse(shown)).toMatchObject({ ...createPetExample, id: expect.any(Number) })
      }
      if (entry.operation.deprecated) {
        expect(await page.locator('.ps-tryit-headers').textContent()).toMatch(/^sunset: /im)
      }
    }
    await screenshot(page, 'service-try-it')
    checkRecord(record)
    await page.context().close()
  })

  it('fills If-Match with the ETag it last saw, and shows the 412 of a stale one', async () => {
    const { page, record } = await openDocs(browser, `${petstore.url}/docs`)
    expect(await tryIt(page, 'createPet', apiKey)).toMatch(/^201 /)
    const created = JSON.parse((await page.locator('.ps-tryit-body').textContent()) ?? '') as Pet
    const panel = await tryItPanel(page)
    const ifMatch = panel.locator('input[data-param="If-Match"]')
    const lastEtag = panel.getByRole('button', { name: 'Last ETag' })
    const send = async (name: string) => {
      await panel.locator('textarea[name=body]').fill(JSON.stringify({ name }))
      await panel.getByRole('button', { name: 'Send request' }).click()
      const status = panel.getByRole('status')
      await expect.poll(() => status.getAttribute('data-outcome')).not.toBe('pending')
      return (await status.textContent()) ?? ''
    }
    await panel.locator('select[name=operation]').selectOption('updatePet')
    await panel.locator('input[data-param="petId"]').fill(String(created.id))
    await lastEtag.click()
    const first = await ifMatch.inputValue()
    expect(first).toMatch(/^"[^"]+"$/)
    expect(await send('Max')).toMatch(/^200 /)
    const etag = (await page.locator('.ps-tryit-headers').textContent())?.match(/^etag: (.+)$/im)
    expect(etag?.[1]).toBeDefined()
    await lastEtag.click()
    expect(await ifMatch.inputValue()).toBe(etag?.[1])
    expect(await send('Bella')).toMatch(/^200 /)
    // The first tag (a tag is a digest of the state) is stale now: the service refuses the write.
    await ifMatch.fill(first)
    expect(await send('Luna')).toMatch(/^412 /)
    expect(await page.locator('.ps-tryit-body').textContent()).toContain('precondition_failed')
    // An address the console has seen no answer for offers no tag.
    await panel.locator('input[data-param="petId"]').fill('9007199254740991')
    await lastEtag.click()
    expect(await ifMatch.inputValue()).toBe('')
    // Chromium reports every failed fetch: the 412 asked for is the one error of the page.
    checkRecord({
      ...record,
      errors: record.errors.filter((error) => !/status of 412/.test(error)),
    })
    expect(record.errors).toHaveLength(1)
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
