/**
 * What Node would answer alone (no Host, an unknown Expect, CONNECT) or decide silently (a
 * header that must occur once, sent twice) is refused with the Error body and the contract
 * headers, and counted.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { specOperations } from '../../src/spec/operations.js'
import {
  call,
  errorOf,
  expectErrorBody,
  expectHttpDate,
  expectSpecResponse,
  minuteLeft,
  newPet,
  type Reply,
  startTestServer,
  type TestServer,
} from '../helpers.js'
import { allowed, specPaths } from '../spec-paths.js'
import { rawRequest } from './raw.js'

let server: TestServer
let key: string

beforeAll(async () => {
  server = await startTestServer()
  key = await server.issueKey({ plan: 'pro' })
})
afterAll(async () => server.close())

function expectContract(reply: Reply, status: number, code: string, operationId?: string) {
  expect(reply.status, reply.text).toBe(status)
  expectErrorBody(reply, code)
  expectSpecResponse(reply, operationId)
  expect(reply.headers.get('x-content-type-options')).toBe('nosniff')
  expect(reply.headers.get('cache-control')).toBe('no-store')
  expectHttpDate(reply)
}

const keyLeft = async () =>
  minuteLeft(await call(`${server.api}/pets`, { headers: { authorization: `Bearer ${key}` } }))
const ipLeft = async () => minuteLeft(await call(`${server.api}/openapi.json`))

describe("what Node's server answered alone", () => {
  it('HTTP/1.1 without Host is 400 invalid_request, counted against the key', async () => {
    const before = await keyLeft()
    const reply = await rawRequest(
      server.url,
      `GET /v1/pets/1 HTTP/1.1\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
    )
    expectContract(reply, 400, 'invalid_request', 'getPet')
    expect(errorOf(reply).message).toContain('Host')
    expect(minuteLeft(reply)).toBe(before - 1)
  })

  it('HTTP/1.0 without Host is served', async () => {
    const reply = await rawRequest(server.url, 'GET /v1/openapi.json HTTP/1.0\r\n\r\n')
    expect(reply.status).toBe(200)
  })

  it.each(specOperations.filter((op) => !op.public).map((op) => [op.operationId, op] as const))(
    'Expect: foo is 400 invalid_request (%s), counted',
    async (operationId, operation) => {
      const target = `${operation.method} /v1${operation.routePath.replace(/:[^/]+/g, '1')}`
      const before = await keyLeft()
      const reply = await rawRequest(
        server.url,
        `${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nExpect: foo\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      )
      expectContract(reply, 400, 'invalid_request', operationId)
      expect(minuteLeft(reply)).toBe(before - 1)
    },
  )

  it('Expect: 100-continue still works', async () => {
    const raw = await rawRequest(
      server.url,
      `GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
    )
    expect(raw.text).toContain('HTTP/1.1 200')
  })

  it.each(specPaths().map(({ example, allow }) => [example, allow] as const))(
    'CONNECT %s is 405 with Allow and the /v1 headers, counted',
    async (example, allow) => {
      const before = await ipLeft()
      const reply = await rawRequest(
        server.url,
        `CONNECT /v1${example} HTTP/1.1\r\nHost: x\r\n\r\n`,
      )
      expectContract(reply, 405, 'method_not_allowed')
      expect(allowed(reply.headers.get('allow'))).toEqual(allow)
      expect(minuteLeft(reply)).toBe(before - 1)
    },
  )

  it('CONNECT to a host is an Error body, not a silent close', async () => {
    const reply = await rawRequest(
      server.url,
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
    )
    expect(reply.status).toBeGreaterThanOrEqual(400)
    expect(reply.status).toBeLessThan(500)
    expectErrorBody(reply)
    expect(reply.headers.get('x-request-id')).toBeTruthy()
  })
})

describe('a header sent twice', () => {
  it('two Authorization headers are 400, counted against the IP, never a silent pick', async () => {
    const other = await server.issueKey({ plan: 'pro' })
    const before = await ipLeft()
    const reply = await rawRequest(
      server.url,
      `GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nAuthorization: Bearer ${other}\r\nConnection: close\r\n\r\n`,
    )
    expectContract(reply, 400, 'invalid_request', 'listPets')
    expect(errorOf(reply).message).toBe('header Authorization must be sent at most once')
    expect(minuteLeft(reply)).toBe(before - 1)
  })

  it.each([
    ['Idempotency-Key', 'Idempotency-Key: a\r\nIdempotency-Key: b\r\n'],
    ['Content-Type', 'Content-Type: application/json\r\ncontent-type: text/plain\r\n'],
    ['Host', 'Host: y\r\n'],
  ])('two %s headers are 400 naming it', async (name, lines) => {
    const body = JSON.stringify(newPet())
    const reply = await rawRequest(
      server.url,
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n${lines}Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    )
    expectContract(reply, 400, 'invalid_request', 'createPet')
    expect(errorOf(reply).message).toBe(`header ${name} must be sent at most once`)
  })
})
