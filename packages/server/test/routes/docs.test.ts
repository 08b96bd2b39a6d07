/** /docs serves the built docs directory as static files, and says clearly when it is missing. */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { contentTypeOf } from '../../src/http/static-files.js'
import { call, errorOf, expectErrorBody, startTestServer, type TestServer } from '../helpers.js'

let dir: string
let server: TestServer
let missing: TestServer

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-docs-'))
  mkdirSync(join(dir, 'dist', 'assets'), { recursive: true })
  writeFileSync(join(dir, 'dist', 'index.html'), '<!doctype html><title>Pet docs</title>')
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
