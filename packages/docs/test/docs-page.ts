/**
 * What a newcomer must find on the docs page, checked in a real browser wherever the page is
 * served (the static build, the service's /docs). Expectations come from the spec itself.
 */
import { join } from 'node:path'
import { errorCodeValues } from '@petstore/types'
import { errorStatus, planLimits } from '@petstore/types/spec'
import type { Browser, Locator, Page } from 'playwright-core'
import { expect } from 'vitest'
import { sunsetBadge } from '../src/deprecation.js'
import { listOperations } from '../src/openapi.js'
import { isLocal, outputDir, type PageRecord, recordPage, spec } from './helpers.js'

/** The `# Heading` sections of the spec's `info.description`. */
export function descriptionSections(): string[] {
  const description = String(spec.info.description ?? '')
  return [...description.matchAll(/^# (.+)$/gm)].map((match) => (match[1] as string).trim())
}

/** The rate-limit headers a successful `listPets` response documents. */
export function rateLimitHeaders(): string[] {
  const listPets = listOperations(spec).find((entry) => entry.operation.operationId === 'listPets')
  const ok = listPets?.operation.responses?.['200'] as { headers?: object } | undefined
  return Object.keys(ok?.headers ?? {}).filter((name) => /ratelimit/i.test(name))
}

export interface OpenedPage {
  page: Page
  record: PageRecord
}

/**
 * Opens `url` in a fresh context and waits until Redoc has hydrated (its footer logo is only
 * mounted on the client) and the try-it console is mounted. `watch` sees the page before its
 * first request.
 */
export async function openDocs(
  browser: Browser,
  url: string,
  colorScheme: 'light' | 'dark' = 'light',
  watch: (page: Page) => void = () => {},
): Promise<OpenedPage> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, colorScheme })
  const page = await context.newPage()
  const record = await recordPage(page)
  watch(page)
  await page.goto(url)
  await page.locator('img[alt="redocly logo"]').first().waitFor()
  await page.locator('.ps-tryit-toggle').waitFor()
  return { page, record }
}

async function visible(page: Page, text: string): Promise<void> {
  await expect.poll(() => page.getByText(text, { exact: false }).first().isVisible()).toBe(true)
}

/** The introduction: every section of the spec's description, with its key content. */
export async function checkIntroduction(page: Page): Promise<void> {
  for (const section of descriptionSections()) {
    await page.locator('h2', { hasText: section }).first().waitFor()
  }
  await visible(page, 'Authorization: Bearer ')

  const plans = page.locator('table', { hasText: 'Requests per minute' })
  await plans.scrollIntoViewIfNeeded()
  for (const [plan, limits] of Object.entries(planLimits)) {
    const row = plans.locator('tr', { hasText: new RegExp(`^\\s*${plan}`, 'i') })
    await expect.poll(() => row.count()).toBe(1)
    const text = (await row.textContent()) ?? ''
    for (const limit of [limits.perMinute, limits.perDay]) {
      if (limit !== null) expect(text).toContain(limit.toLocaleString('en-US'))
    }
  }

  const headers = page.locator('table', { hasText: 'X-RateLimit-Remaining' })
  for (const header of [...rateLimitHeaders(), 'Retry-After']) {
    await expect.poll(() => page.getByText(header, { exact: true }).count()).toBeGreaterThan(0)
  }
  expect(await headers.count()).toBe(1)

  await visible(page, 'rel="next"')
  await visible(page, 'Idempotent-Replayed: true')

  const errors = page.locator('table', { hasText: 'idempotency_key_reused' })
  await errors.scrollIntoViewIfNeeded()
  expect(await errors.isVisible()).toBe(true)
  for (const code of errorCodeValues) {
    // A row's text runs its cells together: `invalid_request400A parameter…`.
    const row = errors.locator('tr', {
      hasText: new RegExp(`^\\s*${code}\\s*${errorStatus[code]}`),
    })
    expect(await row.count(), code).toBe(1)
  }
}

/** Scrolls Redoc to `operation` by its anchor; returns its heading once rendered. */
export async function goToOperation(
  page: Page,
  operation: { operationId?: string; summary?: string; tags?: string[] },
): Promise<Locator> {
  const tag = operation.tags?.[0] ?? ''
  await page.evaluate((hash) => {
    location.hash = hash
  }, `#/${tag}/${operation.operationId?.toLowerCase()}`)
  const heading = page.locator('h2', { hasText: operation.summary as string }).first()
  await heading.waitFor()
  return heading
}

/** Every operation renders with its title and code samples; a deprecated one shows its sunset. */
export async function checkOperations(page: Page): Promise<void> {
  for (const { operation } of listOperations(spec)) {
    const heading = await goToOperation(page, operation)
    await expect.poll(() => heading.isVisible()).toBe(true)
    await visible(page, `Operation ID: ${operation.operationId}`)
    if (operation.deprecated) {
      await visible(page, 'Deprecated')
      await visible(page, sunsetBadge(operation['x-sunset'] as string))
    }
  }
}

/** Opens Redoc's search (Ctrl+K, again until the page has taken it) and types `text`. */
export async function searchFor(page: Page, text: string): Promise<void> {
  const input = page.getByPlaceholder('Search docs...')
  await expect
    .poll(async () => {
      if (!(await input.isVisible())) await page.keyboard.press('Control+k')
      return input.isVisible()
    })
    .toBe(true)
  await input.fill(text)
}

/** Redoc's search (Ctrl+K) finds an operation by its operationId. */
export async function checkSearch(page: Page, operationId: string, summary: string): Promise<void> {
  await searchFor(page, operationId)
  const first = page.locator('[data-component-name="Search/SearchItem"]').first()
  await expect
    .poll(async () => (await first.textContent().catch(() => '')) ?? '')
    .toContain(summary)
  await page.keyboard.press('Escape')
}

/** Nothing left this machine and nothing went wrong in the page. */
export function checkRecord(record: PageRecord): void {
  expect(record.requests.filter((url) => !isLocal(url))).toEqual([])
  expect(record.errors).toEqual([])
}

/** A full-page screenshot under test-output/, for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(outputDir, `${name}.png`)
  await page.screenshot({ path })
  return path
}

/** The try-it console, opened. */
export async function tryItPanel(page: Page): Promise<Locator> {
  const panel = page.getByRole('complementary', { name: 'Try it console' })
  if (!(await panel.isVisible())) await page.locator('.ps-tryit-toggle').click()
  return panel
}

/**
 * Opens the console, picks an operation, fills the key, parameters and body (else the example it
 * shows) and sends; returns the status line.
 */
export async function tryIt(
  page: Page,
  operationId: string,
  apiKey: string,
  parameters: Record<string, string> = {},
  body?: string,
): Promise<string> {
  const panel = await tryItPanel(page)
  await panel.locator('select[name=operation]').selectOption(operationId)
  await panel.locator('input[name=apiKey]').fill(apiKey)
  for (const [name, value] of Object.entries(parameters)) {
    await panel.locator(`input[data-param="${name}"]`).fill(value)
  }
  if (body !== undefined) await panel.locator('textarea[name=body]').fill(body)
  await panel.getByRole('button', { name: 'Send request' }).click()
  const status = panel.getByRole('status')
  await expect.poll(() => status.getAttribute('data-outcome')).not.toBe('pending')
  return (await status.textContent()) ?? ''
}
