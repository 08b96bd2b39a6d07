/**
 * Requests refused below the routes keep the contract of every answer (Error body, X-Request-Id,
 * nosniff, no-store, the rate-limit headers under /v1) and count against their caller; raw
 * sockets send what Node's client would refuse to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  call,
  expectErrorBody,
  expectHttpDate,
  expectSpecResponse,
  minuteLeft,
  type Reply,
  serveForTest,
  startTestServer,
  type TestServer,
} from '../helpers.js'
import { open, rawRequest, readAnswer } from './raw.js'

let server: TestServer
let auth: { authorization: string }

beforeAll(async () => {
  server = await startTestServer()
  auth = { authorization: `Bearer ${await server.issueKey({ plan: 'pro' })}` }
})
afterAll(async () => server.close())

/** Requests left in the minute window of the reply's caller. */

function expectContract(reply: Reply, status: number, code: string, operationId?: string) {
  expect(reply.status, reply.text).toBe(status)
  expectErrorBody(reply, code)
  expectSpecResponse(reply, operationId)
  expect(reply.headers.get('x-request-id')).toBeTruthy()
  expect(reply.headers.get('x-content-type-options')).toBe('nosniff')
  expect(reply.headers.get('cache-control')).toBe('no-store')
  expect(reply.headers.get('ratelimit')).toMatch(/^"minute";r=\d+;t=\d+, "day";r=\d+;t=\d+$/)
  expect(reply.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/)
  expectHttpDate(reply)
}

/** Sends `packets` one after the other on one connection, and reads the answer. */
async function rawPackets(packets: string[]): Promise<Reply> {
  const socket = await open(server.url)
  const answer = readAnswer(socket)
  socket.setNoDelay(true)
  socket.on('error', () => {})
  for (const packet of packets) {
    if (socket.destroyed) break
    await new Promise((resolve) => socket.write(packet, resolve))
  }
  return answer
}

/** Requests left in the minute window of this client's IP. */
async function ipMinuteLeft(): Promise<number> {
  return minuteLeft(await call(`${server.api}/openapi.json`))
}

describe('refused by the router', () => {
  it.each([
    ['an over-long petId', `/pets/${'9'.repeat(5000)}`],
    ['bad percent-encoding', '/pets/%ff'],
    ['an overlong UTF-8 dot', '/pets/%c0%ae'],
  ])('%s is 400 invalid_request with every header, counted against the key', async (_, path) => {
    const before = minuteLeft(await call(`${server.api}/pets`, { headers: auth }))
    const reply = await call(`${server.api}${path}`, { headers: auth })
    expectContract(reply, 400, 'invalid_request', 'getPet')
    expect(minuteLeft(reply)).toBe(before - 1)
  })
})

describe("refused by Node's parser", () => {
  const url = () => server.url

  it('oversized headers are 431 headers_too_large, counted against the IP', async () => {
    const before = minuteLeft(await call(`${server.api}/openapi.json`))
    const reply = await rawRequest(
      url(),
      `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    )
    expectContract(reply, 431, 'headers_too_large', 'listPets')
    expect(minuteLeft(reply)).toBe(before - 1)
  })

  it.each([
    ['a 64 KB URL', [`GET /v1/pets/1?q=${'a'.repeat(64 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`]],
    [
      'header lines in late packets',
      [
        'GET /v1/pets/1 HTTP/1.1\r\n',
        'Host: x\r\n',
        ...Array.from({ length: 4 }, (_, i) => `X-Late-${i}: ${'b'.repeat(8000)}\r\n`),
        '\r\n',
      ],
    ],
  ])('%s is 431 with every header getPet requires, counted against the IP', async (_, packets) => {
    const before = await ipMinuteLeft()
    const reply = await rawPackets(packets)
    expectContract(reply, 431, 'headers_too_large', 'getPet')
    expect(minuteLeft(reply)).toBe(before - 1)
  })

  it('a raw 400 on /v1/pets/1 carries the deprecation headers and counts', async () => {
    const before = await ipMinuteLeft()
    const reply = await rawRequest(
      url(),
      'GET /v1/pets/1 HTTP/1.1\r\nHost: x\r\nBad Name: y\r\n\r\n',
    )
    expectContract(reply, 400, 'invalid_request', 'getPet')
    expect(reply.headers.get('deprecation')).toMatch(/^@\d+$/)
    expect(minuteLeft(reply)).toBe(before - 1)
  })

  it('a raw 400 on a later request of a kept-alive connection keeps the getPet headers', async () => {
    // Only a connection's first request line is kept before parsing; a later one is read from
    // the packet Node's parser failed on.
    const socket = await open(url())
    const answered = new Promise<void>((resolve) => {
      let text = ''
      const read = (chunk: Buffer) => {
        text += chunk.toString('latin1')
        const head = text.indexOf('\r\n\r\n')
        const length = /content-length: (\d+)/i.exec(text)?.[1]
        if (head < 0 || length === undefined || text.length < head + 4 + Number(length)) return
        socket.off('data', read)
        resolve()
      }
      socket.on('data', read)
    })
    socket.write('GET /v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n')
    await answered
    const reply = readAnswer(socket)
    socket.write('GET /v1/pets/1 HTTP/1.1\r\nHost: x\r\nBad Name: y\r\n\r\n')
    expectContract(await reply, 400, 'invalid_request', 'getPet')
  })

  it('a raw answer over the IP limit is 429 with Retry-After and the getPet headers', async (test) => {
    const own = await serveForTest(test)
    const limit = Number((await call(`${own.api}/openapi.json`)).headers.get('x-ratelimit-limit'))
    for (let sent = 1; sent < limit; sent++) await call(`${own.api}/openapi.json`)
    const reply = await rawRequest(
      own.url,
      'GET /v1/pets/1 HTTP/1.1\r\nHost: x\r\nBad Name: y\r\n\r\n',
    )
    expectContract(reply, 429, 'rate_limited', 'getPet')
    expect(Number(reply.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
  })

  it.each([
    ['an unknown method', 'BREW /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n'],
    [
      'Content-Length with Transfer-Encoding',
      'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ],
  ])('%s is 400 invalid_request with the /v1 headers', async (_, text) => {
    const reply = await rawRequest(url(), text)
    expectContract(reply, 400, 'invalid_request', 'listPets')
  })

  it('a malformed chunked body is 400 invalid_request, counted against the key', async () => {
    const before = minuteLeft(await call(`${server.api}/pets`, { headers: auth }))
    const reply = await rawRequest(
      url(),
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${auth.authorization.replace('Bearer', 'Authorization: Bearer')}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    )
    expectContract(reply, 400, 'invalid_request', 'createPet')
    expect(minuteLeft(reply)).toBe(before - 1)
  })

  it('outside /v1 the answer is still an Error body with X-Request-Id', async () => {
    const reply = await rawRequest(url(), 'BREW /healthz HTTP/1.1\r\nHost: x\r\n\r\n')
    expect(reply.status).toBe(400)
    expectErrorBody(reply, 'invalid_request')
    expect(reply.headers.get('x-request-id')).toBeTruthy()
    expect(reply.headers.get('ratelimit')).toBeNull()
  })
})

describe('the public spec document', () => {
  it('OPTIONS is 204 with Allow and counts against no limit', async () => {
    const before = minuteLeft(await call(`${server.api}/openapi.json`))
    const reply = await call(`${server.api}/openapi.json`, { method: 'OPTIONS' })
    expect(reply.status).toBe(204)
    expect(reply.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    expect(reply.headers.get('ratelimit')).toBeNull()
    expect(minuteLeft(await call(`${server.api}/openapi.json`))).toBe(before - 1)
  })

  it('POST is 405 with Allow', async () => {
    const reply = await call(`${server.api}/openapi.json`, { method: 'POST' })
    expectContract(reply, 405, 'method_not_allowed')
    expect(reply.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
  })
})
