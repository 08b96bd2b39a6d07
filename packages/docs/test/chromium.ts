/**
 * One Chromium for every browser suite of the package (vitest's globalSetup): started once, its
 * endpoint provided to the suites, which connect to it (helpers.ts `connectChromium`) and get
 * contexts of their own; closing a connected browser closes only those.
 */
import { chromium } from 'playwright-core'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumEndpoint: string
  }
}

/** The system Chromium (never a downloaded one), headless and with background traffic off. */
export default async function startChromium(project: TestProject): Promise<() => Promise<void>> {
  const server = await chromium.launchServer({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
  project.provide('chromiumEndpoint', server.wsEndpoint())
  return () => server.close()
}
