/**
 * What the console adds never covers Redoc's page, at 1280 px and 390 px wide, light and dark:
 * boxes read from Chromium. Screenshots of each go to test-output/ for a person to look at.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { distDir, launchChromium, outputDir, type Served, serveStatic } from './helpers.js'

interface Box {
  x: number
  y: number
  width: number
  height: number
}

const intersects = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

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

async function open(width: number, colorScheme: 'light' | 'dark'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 844 }, colorScheme })
  const page = await context.newPage()
  await page.goto(`${served.url}/#/pets/createpet`)
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
