/** buildApp with injected dependencies: failures stay inside, and deprecation follows the spec. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openapiDocument } from '@petstore/types/spec'
import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { issueApiKey } from '../src/auth/api-key.js'
import { BackendUnavailableError } from '../src/backend-failure.js'
import { configWith } from '../src/config.js'
import { openSqliteStore } from '../src/store/sqlite/index.js'
import type { Store } from '../src/store/store.js'
import { call, expectErrorBody, expectSpecResponse, newPet, postJson } from './helpers.js'

let dir: string
let count = 0
const running: { app: FastifyInstance; store: Store }[] = []

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-app-'))
})
afterEach(async () => {
  for (const { app, store } of running.splice(0)) {
    await app.close()
    await store.close()
  }
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function serve(
  edit: (store: Store) => Store = (store) => store,
  options: {
    document?: Record<string, unknown>
    logs?: string[]
    responseCheck?: 'log' | 'fail'
  } = {},
) {
  const dbPath = join(dir, `app-${++count}.db`)
  const store = openSqliteStore(dbPath)
  const config = configWith({
    logLevel: options.logs ? 'info' : 'silent',
    cursorSecret: 'x'.repeat(32),
    responseCheck: options.responseCheck ?? 'fail',
  })
  const app = await buildApp(config, {
    store: edit(store),
    document: options.document,
    logStream: options.logs ? { write: (line: string) => options.logs?.push(line) } : undefined,
  })
  running.push({ app, store })
  const url = await app.listen({ host: '127.0.0.1', port: 0 })
  const { rawKey } = await issueApiKey(store.keys, { plan: 'pro' })
  return { url, auth: { authorization: `Bearer ${rawKey}` }, rawKey, dbPath }
}

it('answers an unexpected failure with internal_error and no detail, keeping the operation headers', async () => {
  const logs: string[] = []
  const { url, auth } = await serve(
    (store) => ({
      ...store,
      pets: {
        ...store.pets,
        get: async () => {
          throw new Error('disk exploded at /var/lib/secret')
        },
      },
    }),
    { logs },
  )
  const reply = await call(`${url}/v1/pets/1`, { headers: { ...auth, 'x-request-id': 'boom-1' } })
  expectSpecResponse(reply, 'getPet')
  expectErrorBody(reply, 'internal_error')
  expect(reply.text).not.toContain('secret')
  expect(reply.headers.get('deprecation')).toBe('@1767225600')
  expect(
    logs.some((line) => line.includes('disk exploded') && line.includes('"requestId":"boom-1"')),
  ).toBe(true)
})

it('maps an unavailable store to 503 with Retry-After, and /readyz says so', async () => {
  const unavailable = () =>
    new BackendUnavailableError('sqlite', 'busy', {
      cause: Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }),
    })
  const { url, auth } = await serve((store) => ({
    ...store,
    ping: async () => {
      throw unavailable()
    },
    pets: {
      ...store.pets,
      list: async () => {
        throw unavailable()
      },
    },
  }))
  const list = await call(`${url}/v1/pets`, { headers: auth })
  expectSpecResponse(list, 'listPets')
  expectErrorBody(list, 'service_unavailable')
  expect(list.headers.get('retry-after')).toBe('1')
  const ready = await call(`${url}/readyz`)
  expectErrorBody(ready, 'service_unavailable')
  expect(Number(ready.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
})

it('refuses writes once the database file is deleted: 503, /readyz 503, one log line', async () => {
  const logs: string[] = []
  const { url, auth, dbPath } = await serve(undefined, { logs })
  const pet = newPet()
  expect((await postJson(`${url}/v1/pets`, pet, auth)).status).toBe(201)
  expect((await call(`${url}/readyz`)).status).toBe(200)
  rmSync(dbPath)
  for (let i = 0; i < 5; i++) {
    const refused = await postJson(`${url}/v1/pets`, pet, auth)
    expectSpecResponse(refused, 'createPet')
    expectErrorBody(refused, 'service_unavailable')
  }
  const ready = await call(`${url}/readyz`)
  expectErrorBody(ready, 'service_unavailable')
  const faults = logs.filter((line) => line.includes('the store cannot serve'))
  expect(faults).toHaveLength(1)
  expect(faults[0]).toContain('SQLITE_READONLY_DBMOVED')
  expect(logs.join('')).not.toContain('"stack"')
})

it('deprecating another operation is a spec edit: the same hook adds its headers', async () => {
  const document = structuredClone(openapiDocument) as unknown as {
    paths: Record<string, Record<string, Record<string, unknown>>>
  }
  const listPets = document.paths['/pets']?.get as Record<string, unknown>
  Object.assign(listPets, {
    deprecated: true,
    'x-deprecated-at': '2027-01-01T00:00:00Z',
    'x-sunset': '2032-06-30T00:00:00Z',
    'x-successor': 'getPet',
  })
  const { url, auth } = await serve(undefined, {
    document: document as unknown as Record<string, unknown>,
  })
  for (const headers of [auth, {}]) {
    const reply = await call(`${url}/v1/pets`, { headers })
    expect(reply.headers.get('deprecation')).toBe(`@${Date.parse('2027-01-01T00:00:00Z') / 1000}`)
    expect(reply.headers.get('sunset')).toBe('Wed, 30 Jun 2032 00:00:00 GMT')
    expect(reply.headers.get('link')).toContain('</v1/pets/{petId}>; rel="successor-version"')
  }
  const served = await call(`${url}/v1/openapi.json`)
  expect((served.body as typeof document).paths['/pets']?.get?.deprecated).toBe(true)
  const create = await call(`${url}/v1/pets`, { method: 'POST', headers: auth })
  expect(create.headers.get('deprecation')).toBeNull()
})

it('holds every answer to the headers the spec requires of it: logged, or failed with a 500', async () => {
  // The served spec requires a header no writer sends on a first create.
  const document = structuredClone(openapiDocument) as unknown as {
    paths: Record<string, Record<string, { responses: Record<string, { headers: object }> }>>
  }
  const created = document.paths['/pets']?.post?.responses['201'] as { headers: object }
  created.headers = {
    ...created.headers,
    'X-Audit': { required: true, schema: { type: 'string' } },
  }
  const served = document as unknown as Record<string, unknown>
  const logs: string[] = []
  const logged = await serve(undefined, { document: served, logs, responseCheck: 'log' })
  const sent = await postJson(`${logged.url}/v1/pets`, newPet(), logged.auth)
  expect(sent.status).toBe(201)
  const line = logs.map((text) => JSON.parse(text)).find((entry) => entry.missing !== undefined)
  expect(line).toMatchObject({
    level: 50,
    operationId: 'createPet',
    status: 201,
    missing: ['x-audit'],
    msg: 'the answer lacks a header the spec requires',
  })
  const failed = await serve(undefined, { document: served })
  const refused = await postJson(`${failed.url}/v1/pets`, newPet(), failed.auth)
  expectErrorBody(refused, 'internal_error')
  expect(refused.status).toBe(500)
  // What every writer owes is still sent: only the missing header is the fault.
  const listed = await call(`${failed.url}/v1/pets`, { headers: failed.auth })
  expectSpecResponse(listed, 'listPets')
})

it('never logs the Authorization header or a key', async () => {
  const logs: string[] = []
  const { url, rawKey } = await serve(undefined, { logs })
  await call(`${url}/v1/pets`, { headers: { authorization: `Bearer ${rawKey}` } })
  await call(`${url}/v1/pets`, { headers: { authorization: `Bearer ${rawKey}0` } })
  expect(logs.length).toBeGreaterThan(0)
  expect(logs.join('')).not.toContain(rawKey)
})
