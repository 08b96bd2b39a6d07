import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { type RunningPetstore, startPetstore } from '@petstore/server'
import { build } from 'esbuild'
import { type Browser, chromium } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'

let petstore: RunningPetstore
let page: Server
let browser: Browser

/** The client as a browser gets it: one bundle, no Node built-ins available. */
async function browserBundle(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    globalName: 'Petstore',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  })
  return result.outputFiles[0]?.text ?? ''
}

beforeAll(async () => {
  petstore = await startPetstore()
  const script = await browserBundle()
  // A page on another origin than the API, so every call goes through CORS as in production.
  page = createServer((req, res) => {
    if (req.url === '/client.js')
      res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(script)
    else
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<script src="/client.js"></script>')
  })
  page.listen(0, '127.0.0.1')
  await once(page, 'listening')
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  })
}, 60_000)

afterAll(async () => {
  await browser?.close()
  page?.close()
  await petstore?.close()
})

it('works in a browser: CORS, idempotent POST, pagination, rate limits, ETag and If-Match, console.warn deprecation', async () => {
  const tab = await browser.newPage()
  const warnings: string[] = []
  tab.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text())
  })
  await tab.goto(`http://127.0.0.1:${(page.address() as AddressInfo).port}/`)
  const apiKey = await petstore.issueKey({ plan: 'enterprise', perMinute: 10_000, perDay: 100_000 })

  const result = await tab.evaluate(
    async ({ baseUrl, apiKey }) => {
      type Client = typeof import('../src/index.js')
      const { createPetstoreClient, paginatePages, unwrap } = (
        globalThis as unknown as { Petstore: Client }
      ).Petstore
      const client = createPetstoreClient({ baseUrl, apiKey })
      const created = await client.POST('/pets', { body: { name: 'Rex', categoryId: 1 } })
      await client.POST('/pets', { body: { name: 'Bella', categoryId: 2 } })
      const pet = unwrap(created)
      await client.GET('/pets/{petId}', { params: { path: { petId: pet.id } } })
      let pages = 0
      for await (const _ of paginatePages(client, 'listPets', { limit: 1 })) pages += 1
      const renamed = await client.PATCH('/pets/{petId}', {
        params: { path: { petId: pet.id }, header: { 'If-Match': created.meta.etag } },
        body: { name: 'Rexy' },
      })
      return {
        status: created.response.status,
        pages,
        remaining: client.rateLimit()?.remaining,
        requestId: created.response.headers.get('X-Request-Id'),
        location: created.meta.location === `/v1/pets/${pet.id}`,
        etag: created.meta.etag,
        renamed: renamed.data?.name,
        renamedEtag: renamed.meta.etag,
      }
    },
    { baseUrl: `${petstore.url}/v1`, apiKey },
  )

  // 201: the preflight allowed Authorization and the automatic Idempotency-Key; two pages: the
  // Link header is exposed; remaining: so are the rate-limit headers.
  expect(result).toMatchObject({ status: 201, pages: 2, requestId: expect.any(String) })
  expect(result.remaining).toBeGreaterThan(0)
  // meta's own fields: ETag and Location are exposed; the merge patch with If-Match passed the
  // preflight (PATCH, If-Match, its Content-Type) and matched.
  expect(result).toMatchObject({
    location: true,
    etag: expect.stringMatching(/^"/),
    renamed: 'Rexy',
  })
  expect(result.renamedEtag).toMatch(/^"/)
  expect(result.renamedEtag).not.toBe(result.etag)
  expect(warnings).toHaveLength(1)
  expect(warnings[0]).toMatch(/^DeprecationWarning: getPet \(GET \/pets\/\{petId\}\) is deprecated/)
}, 30_000)
