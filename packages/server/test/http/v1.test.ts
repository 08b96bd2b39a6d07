/** The /v1 scope around the operations: unknown paths and methods, OPTIONS, CORS, the spec. */
import { operationsOf, resolveRef } from '@petstore/types/openapi'
import { openapiDocument } from '@petstore/types/spec'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { safelisted } from '../../src/http/cors.js'
import { specOperations } from '../../src/spec/operations.js'
import {
  call,
  expectErrorBody,
  expectSpecResponse,
  startTestServer,
  type TestServer,
} from '../helpers.js'
import { allowed, probedMethods, specPaths } from '../spec-paths.js'

const paths = specPaths()
type Node = Record<string, unknown>
/** Every response header the spec declares, with whether it marks it for the browser alone. */
const declaredHeaders = operationsOf(openapiDocument).flatMap(({ operation }) =>
  Object.values((operation.responses ?? {}) as Node).flatMap((raw) =>
    Object.entries((resolveRef<Node>(openapiDocument, raw as Node).headers ?? {}) as Node).map(
      ([name, header]) => ({
        name,
        browserOnly: resolveRef<Node>(openapiDocument, header as Node)['x-cors-exposed'] === false,
      }),
    ),
  ),
)
/** The headers the spec marks `x-cors-exposed: false`: for the browser, not the client's code. */
const browserOnly = new Set(declaredHeaders.filter((h) => h.browserOnly).map((h) => h.name))
/** Every response header the spec declares that the client's code reads. */
const clientHeaders = new Set(
  declaredHeaders
    .filter(({ name, browserOnly }) => {
      const lower = name.toLowerCase()
      return !browserOnly && !safelisted.has(lower) && !lower.startsWith('access-control-')
    })
    .map((h) => h.name),
)
/** Every request header parameter the spec declares. */
const requestHeaders = new Set(
  specOperations.flatMap((operation) =>
    operation.parameters.filter((p) => p.in === 'header').map((p) => p.name),
  ),
)
const asSet = (value: string | null) => new Set((value ?? '').split(', ').filter(Boolean))

let server: TestServer
let restricted: TestServer
let auth: { authorization: string }

beforeAll(async () => {
  server = await startTestServer()
  restricted = await startTestServer({ corsOrigins: ['https://app.example'] })
  auth = { authorization: `Bearer ${await server.issueKey({ plan: 'pro' })}` }
})
afterAll(async () => Promise.all([server.close(), restricted.close()]))

describe('routing', () => {
  it('404 Error body for an unknown path under /v1, with the /v1 headers', async () => {
    for (const path of ['/nope', '/pets/1/toys', '/']) {
      const reply = await call(`${server.api}${path}`, { headers: auth })
      expectSpecResponse(reply)
      expectErrorBody(reply, 'not_found')
      expect(reply.headers.get('x-content-type-options')).toBe('nosniff')
      expect(reply.headers.get('cache-control')).toBe('no-store')
    }
  })

  it('404 Error body outside /v1 too', async () => {
    const reply = await call(`${server.url}/elsewhere`)
    expectSpecResponse(reply)
    expectErrorBody(reply, 'not_found')
  })

  it('405 with Allow for a method the path does not support', async () => {
    let probed = 0
    for (const { example, allow } of paths) {
      for (const method of probedMethods.filter((m) => !allow.includes(m))) {
        const reply = await call(`${server.api}${example}`, { method, headers: auth })
        expectSpecResponse(reply)
        expectErrorBody(reply, 'method_not_allowed')
        expect(allowed(reply.headers.get('allow')), `${method} ${example}`).toEqual(allow)
        probed++
      }
    }
    expect(probed).toBeGreaterThan(0)
  })

  it('HEAD works where GET does', async () => {
    const reply = await call(`${server.api}/pets`, { method: 'HEAD', headers: auth })
    expect(reply.status).toBe(200)
    expect(reply.text).toBe('')
    expect(reply.headers.get('x-request-id')).not.toBeNull()
  })
})

describe('OPTIONS and CORS', () => {
  it('OPTIONS is 204 with Allow, without a key and without counting', async () => {
    for (const { example, allow } of paths) {
      const reply = await call(`${server.api}${example}`, { method: 'OPTIONS' })
      expect(reply.status).toBe(204)
      expect(allowed(reply.headers.get('allow'))).toEqual(allow)
      expect(reply.headers.get('x-ratelimit-remaining')).toBeNull()
      expect(reply.headers.get('x-content-type-options')).toBe('nosniff')
    }
  })

  it('answers a preflight with the allowed methods and request headers', async () => {
    const [pets] = paths.filter(({ allow }) => allow.includes('POST'))
    const reply = await call(`${server.api}${pets?.example}`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://anywhere.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, idempotency-key',
      },
    })
    expect(reply.status).toBe(204)
    expect(reply.headers.get('access-control-allow-origin')).toBe('*')
    expect(allowed(reply.headers.get('access-control-allow-methods'))).toEqual(pets?.allow)
    expect(asSet(reply.headers.get('access-control-allow-headers'))).toEqual(
      new Set(['Authorization', 'Content-Type', ...requestHeaders]),
    )
    expect(requestHeaders, 'the spec declares request headers').toContain('If-Match')
    expect(reply.headers.get('access-control-allow-credentials')).toBeNull()
  })

  it('exposes the client-relevant headers on actual responses, errors included', async () => {
    for (const headers of [
      { ...auth, origin: 'https://x.example' },
      { origin: 'https://x.example' },
    ]) {
      const reply = await call(`${server.api}/pets`, { headers })
      expect(reply.headers.get('access-control-allow-origin')).toBe('*')
      // What a client reads must be exposed: every header a response declares, but those meant
      // for the browser itself, and nothing else.
      expect(asSet(reply.headers.get('access-control-expose-headers'))).toEqual(clientHeaders)
    }
    expect(clientHeaders, 'the spec declares ETag').toContain('ETag')
    expect(browserOnly, 'the spec marks WWW-Authenticate for the browser').toContain(
      'WWW-Authenticate',
    )
  })

  it('with PETSTORE_CORS_ORIGINS, allows only the listed origins', async () => {
    const allowed = await call(`${restricted.api}/pets`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
    })
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect(allowed.headers.get('vary')).toContain('Origin')
    const denied = await call(`${restricted.api}/pets`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    })
    expect(denied.status).toBe(204)
    expect(denied.headers.get('access-control-allow-origin')).toBeNull()
    expect(denied.headers.get('access-control-allow-methods')).toBeNull()
  })
})

describe('public endpoints', () => {
  it('/v1/openapi.json serves the bundled spec without a key', async () => {
    const reply = await call(`${server.api}/openapi.json`)
    expect(reply.status).toBe(200)
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/)
    expect(reply.body).toEqual(openapiDocument)
    expect(reply.headers.get('x-ratelimit-limit')).toBe('60')
    expectSpecResponse(reply, 'getOpenApiDocument')
  })

  it('/v1/openapi.json answers OPTIONS with Allow as the spec declares, and 405 to POST', async () => {
    const options = await call(`${server.api}/openapi.json`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
    })
    expect(options.status).toBe(204)
    const allow = paths.find(({ path }) => path === '/openapi.json')?.allow
    expect(allowed(options.headers.get('allow'))).toEqual(allow)
    const declared = Object.keys(openapiDocument.components.responses.AllowedMethods.headers)
    const sent = [...options.headers.keys()].filter((name) =>
      /^(allow|access-control-|x-|cache-control|vary)/.test(name),
    )
    expect(declared.map((name) => name.toLowerCase())).toEqual(expect.arrayContaining(sent))
    const post = await call(`${server.api}/openapi.json`, { method: 'POST' })
    expectErrorBody(post, 'method_not_allowed')
    expect(allowed(post.headers.get('allow'))).toEqual(allow)
  })

  it('/healthz and /readyz answer without a key', async () => {
    const health = await call(`${server.url}/healthz`)
    expect([health.status, health.body]).toEqual([200, { status: 'ok' }])
    const ready = await call(`${server.url}/readyz`)
    expect([ready.status, ready.body]).toEqual([200, { status: 'ready' }])
    expect(ready.headers.get('x-request-id')).not.toBeNull()
  })
})
