/**
 * /docs serves the built docs directory as static files, and says clearly when it is missing:
 * with validators (`304` on a match), compressed when asked, and limited per client IP.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { get } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { contentTypeOf } from '../../src/http/static-files.js'
import {
  call,
  errorOf,
  expectErrorBody,
  serveForTest,
  startTestServer,
  type TestServer,
} from '../helpers.js'

const page = `<!doctype html><title>Pet docs</title>${'<p>Pets to adopt</p>'.repeat(500)}`

let dir: string
let server: TestServer
let missing: TestServer

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-docs-'))
  mkdirSync(join(dir, 'dist', 'assets'), { recursive: true })
  writeFileSync(join(dir, 'dist', 'index.html'), page)
  writeFileSync(join(dir, 'dist', 'assets', 'app.js'), 'console.log(1)')
  writeFileSync(join(dir, 'secret.txt'), 'outside')
  server = await startTestServer({ docsDir: join(dir, 'dist') })
  missing = await startTestServer({ docsDir: join(dir, 'not-built') })
})
afterAll(async () => {
  await Promise.all([server.close(), missing.close()])
  rmSync(dir, { recursive: true, force: true })
})

it('serves index.html at /docs and /docs/', async () => {
  for (const path of ['/docs', '/docs/']) {
    const reply = await call(`${server.url}${path}`)
    expect(reply.status).toBe(200)
    expect(reply.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(reply.text).toContain('Pet docs')
  }
})

it('serves other files under /docs/*, HEAD included', async () => {
  const reply = await call(`${server.url}/docs/assets/app.js`)
  expect([reply.status, reply.headers.get('content-type'), reply.text]).toEqual([
    200,
    'text/javascript; charset=utf-8',
    'console.log(1)',
  ])
  const head = await call(`${server.url}/docs/assets/app.js`, { method: 'HEAD' })
  expect([head.status, head.text]).toEqual([200, ''])
})

it('knows the content type of every file the docs build writes', () => {
  const built = loadConfig({}).docsDir
  const files = readdirSync(built, { recursive: true, withFileTypes: true }).filter((f) =>
    f.isFile(),
  )
  expect(files.map((file) => file.name)).toContain('changelog.atom')
  for (const file of files) {
    expect(contentTypeOf(file.name), file.name).not.toBe('application/octet-stream')
  }
})

it('never serves files outside the docs directory', async () => {
  for (const path of [
    '/docs/../secret.txt',
    '/docs/%2e%2e/secret.txt',
    '/docs/..%2fsecret.txt',
    '/docs/nope.js',
  ]) {
    const reply = await call(`${server.url}${path}`)
    expect(reply.status, path).toBe(404)
    expect(reply.text).not.toContain('outside')
  }
})

it('is a clear 404 Error when the docs are not built', async () => {
  const reply = await call(`${missing.url}/docs`)
  expectErrorBody(reply, 'not_found')
  expect(errorOf(reply).message).toContain('pnpm --filter @petstore/docs build')
})

/** A GET by node:http, which (unlike fetch) leaves the body as sent: compressed or not. */
function getBytes(
  url: string,
  headers: Record<string, string> = {},
): Promise<{
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
        }),
      )
    }).on('error', reject)
  })
}

it('sends ETag and Last-Modified, and 304 without a body when they match', async () => {
  const first = await getBytes(`${server.url}/docs`)
  const etag = String(first.headers.etag)
  const lastModified = String(first.headers['last-modified'])
  expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/)
  expect(Date.parse(lastModified)).not.toBeNaN()
  expect(first.headers['cache-control']).toBe('no-cache')
  expect(first.body.toString()).toBe(page)
  const matching: Record<string, string>[] = [
    { 'if-none-match': etag },
    { 'if-none-match': `"other", W/${etag}` },
    { 'if-none-match': '*' },
    { 'if-modified-since': lastModified },
  ]
  for (const conditions of matching) {
    const again = await getBytes(`${server.url}/docs`, conditions)
    expect(
      [again.status, again.body.length, again.headers.etag],
      JSON.stringify(conditions),
    ).toEqual([304, 0, etag])
  }
  const changedSince: Record<string, string>[] = [
    { 'if-none-match': '"other"' },
    { 'if-modified-since': new Date(Date.parse(lastModified) - 1000).toUTCString() },
    // If-None-Match wins over If-Modified-Since.
    { 'if-none-match': '"other"', 'if-modified-since': lastModified },
  ]
  for (const conditions of changedSince) {
    const changed = await getBytes(`${server.url}/docs`, conditions)
    expect([changed.status, changed.body.toString()], JSON.stringify(conditions)).toEqual([
      200,
      page,
    ])
  }
})

it('compresses with brotli or gzip when the client accepts it, with a tag of its own', async () => {
  const identity = await getBytes(`${server.url}/docs`)
  const br = await getBytes(`${server.url}/docs`, { 'accept-encoding': 'gzip, deflate, br' })
  const gzip = await getBytes(`${server.url}/docs`, { 'accept-encoding': 'br;q=0, gzip' })
  expect(br.headers['content-encoding']).toBe('br')
  expect(brotliDecompressSync(br.body).toString()).toBe(page)
  expect(gzip.headers['content-encoding']).toBe('gzip')
  expect(gunzipSync(gzip.body).toString()).toBe(page)
  expect(identity.headers['content-encoding']).toBeUndefined()
  for (const reply of [identity, br, gzip]) expect(reply.headers.vary).toBe('accept-encoding')
  expect(br.body.length).toBeLessThan(page.length / 10)
  expect(new Set([identity.headers.etag, br.headers.etag, gzip.headers.etag]).size).toBe(3)
  const unchanged = await getBytes(`${server.url}/docs`, {
    'accept-encoding': 'br',
    'if-none-match': String(br.headers.etag),
  })
  expect(unchanged.status).toBe(304)
})

it('serves a file only at its own name, never with a trailing slash', async () => {
  for (const path of ['/docs/index.html/', '/docs/assets/app.js/', '/docs/assets/app.js/.']) {
    const reply = await call(`${server.url}${path}`)
    expect(reply.status, path).toBe(404)
    expectErrorBody(reply, 'not_found')
  }
  expect((await call(`${server.url}/docs/assets/`)).status).toBe(404)
})

it('serves a rebuilt file at the next request, with a new tag', async () => {
  const file = join(dir, 'dist', 'assets', 'rebuilt.js')
  writeFileSync(file, 'console.log("first build")')
  const before = await call(`${server.url}/docs/assets/rebuilt.js`)
  writeFileSync(file, 'console.log("second build, longer")')
  const after = await call(`${server.url}/docs/assets/rebuilt.js`)
  expect([before.text, after.text]).toEqual([
    'console.log("first build")',
    'console.log("second build, longer")',
  ])
  expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'))
})

it('limits /docs per client IP as /v1/openapi.json is: 429 rate_limited past the free plan', async (test) => {
  const limited = await serveForTest(test, { docsDir: join(dir, 'dist') })
  const paths = ['/docs', '/docs/assets/app.js', '/docs/nope.js']
  const replies = []
  for (let i = 0; i < 61; i++) replies.push(await call(`${limited.url}${paths[i % paths.length]}`))
  expect(replies.slice(0, 60).map((reply) => reply.status)).not.toContain(429)
  expect(replies[0]?.headers.get('x-ratelimit-limit')).toBe('60')
  expect(replies[0]?.headers.get('ratelimit-policy')).toBe(
    '"minute";q=60;w=60, "day";q=1000;w=86400',
  )
  const refused = replies[60] as (typeof replies)[number]
  expectErrorBody(refused, 'rate_limited')
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
  expect(refused.headers.get('x-ratelimit-remaining')).toBe('0')
  expect(refused.headers.get('x-content-type-options')).toBe('nosniff')
  expect(refused.headers.get('x-request-id')).not.toBeNull()
  // The same count as /v1/openapi.json's: the IP's.
  expect((await call(`${limited.url}/v1/openapi.json`)).status).toBe(429)
})
