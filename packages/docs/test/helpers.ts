/** Shared test fixtures: the bundled spec, the built site, a static server and Chromium. */
import { mkdirSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import type { NewPet } from '@petstore/types'
import { openapiDocument } from '@petstore/types/spec'
import { type Browser, chromium, type Page } from 'playwright-core'
import { inject } from 'vitest'
import type { OpenApiDocument } from '../src/openapi.js'
import { createStaticServer } from '../src/static-server.js'

/** The bundled spec, as the build reads it. */
export const spec = openapiDocument as unknown as OpenApiDocument

/** createPet's first request body example, read from the spec: what samples and try-it send. */
export const createPetExample = Object.values(
  openapiDocument.paths['/pets'].post.requestBody.content['application/json'].examples,
)[0]?.value as NewPet

/** The site that `pnpm --filter @petstore/docs build` wrote (turbo builds it before tests). */
export const distDir = fileURLToPath(new URL('../dist/', import.meta.url))

/** Screenshots and scratch files; gitignored. */
export const outputDir = fileURLToPath(new URL('../test-output/', import.meta.url))
mkdirSync(outputDir, { recursive: true })

export interface Served {
  /** Base URL without a trailing slash. */
  url: string
  close(): Promise<void>
}

/** Serves `root` on an ephemeral loopback port. */
export async function serveStatic(root: string, basePath = '/'): Promise<Served> {
  const server = createStaticServer({ root, basePath })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  }
}

/** The package's one Chromium (chromium.ts), as a browser of this suite's own. */
export function connectChromium(): Promise<Browser> {
  return chromium.connect(inject('chromiumEndpoint'))
}

const loopbackHosts = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/

/** Whether the browser may request `url` without leaving this machine. */
export function isLocal(url: string): boolean {
  const { protocol, hostname } = new URL(url)
  if (protocol === 'data:' || protocol === 'blob:' || protocol === 'about:') return true
  return loopbackHosts.test(hostname)
}

/** Every request a page makes and every error it reports, recorded from the first request. */
export interface PageRecord {
  requests: string[]
  errors: string[]
}

/**
 * Records the page's traffic and errors. Requests to other hosts are recorded and then aborted,
 * so that a regression shows up as a failed test, never as traffic leaving the machine.
 */
export async function recordPage(page: Page): Promise<PageRecord> {
  const record: PageRecord = { requests: [], errors: [] }
  page.on('request', (request) => record.requests.push(request.url()))
  await page.route('**/*', (route) =>
    isLocal(route.request().url()) ? route.continue() : route.abort('blockedbyclient'),
  )
  page.on('console', (message) => {
    if (message.type() === 'error') record.errors.push(message.text())
  })
  page.on('pageerror', (error) => record.errors.push(error.message))
  return record
}
