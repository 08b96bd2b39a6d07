/**
 * Slow, stalled and oversized clients cannot pin the server: late requests are answered 408
 * and closed, connections are capped, a normal client is served meanwhile, and an oversized
 * body reads its 413. Behind a trusted proxy, per-IP limits use the forwarded address.
 */
import type { Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  call,
  expectErrorBody,
  expectHttpDate,
  expectSpecResponse,
  minuteLeft,
  newPet,
  serveForTest,
  startTestServer,
  type TestServer,
} from '../helpers.js'
import { open, parseResponse, rawRequest, readAnswer } from './raw.js'

/** Opens `count` connections that each send the start of a request and then nothing. */
async function stall(url: string, count: number, start: string): Promise<Socket[]> {
  const sockets = await Promise.all(Array.from({ length: count }, () => open(url)))
  for (const socket of sockets) {
    socket.on('error', () => {})
    socket.resume()
    socket.write(start)
  }
  return sockets
}

describe('request timeout', () => {
  let server: TestServer
  let authorization: string
  beforeAll(async () => {
    // All from 127.0.0.1: above the per-address cap (connection-cap.test.ts), which is not tested here.
    server = await startTestServer({ requestTimeoutSeconds: 1, maxConnectionsPerAddress: 1000 })
    authorization = `Bearer ${await server.issueKey({ plan: 'pro' })}`
  })
  afterAll(async () => server.close())

  it('answers a stalled body 408 request_timeout, counted against the key, and closes', async () => {
    const socket = await open(server.url)
    const answer = readAnswer(socket)
    const started = Date.now()
    socket.write(
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${authorization}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`,
    )
    const reply = await answer
    expect(reply.status).toBe(408)
    expectErrorBody(reply, 'request_timeout')
    expectSpecResponse(reply, 'createPet')
    expect(reply.headers.get('x-ratelimit-limit')).toBe('300')
    expect(reply.headers.get('connection')).toBe('close')
    // 1 s timeout, checked every 250 ms; generous for a loaded machine, far below "for ever".
    expect(Date.now() - started).toBeLessThan(15_000)
  })

  it.each([
    ['listPets', 'GET /v1/pets HTTP/1.1\r\nHost: x\r\n'],
    ['getPet', 'GET /v1/pets/1 HTTP/1.1\r\nHost: x\r\n'],
    ['getPet', 'GET /v1/pets/1 HTTP/1.1\r\nHost'],
    ['getPet', 'GET /v1/pets/1'],
  ])(
    'answers stalled headers (%s, %j) 408 with every header the spec requires, counted',
    async (operationId, start) => {
      const before = minuteLeft(await call(`${server.api}/openapi.json`))
      const reply = await rawRequest(server.url, start)
      expect(reply.status).toBe(408)
      expectErrorBody(reply, 'request_timeout')
      expectSpecResponse(reply, operationId)
      expectHttpDate(reply)
      expect(minuteLeft(reply)).toBe(before - 1)
    },
  )

  it('serves a normal client while many stalled connections are open', async () => {
    const stalled = await stall(
      server.url,
      100,
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{`,
    )
    try {
      const reply = await call(`${server.api}/pets`, { headers: { authorization } })
      expect(reply.status).toBe(200)
    } finally {
      for (const socket of stalled) socket.destroy()
    }
  })
})

it('caps connections, and frees them when their requests time out', async (test) => {
  const server = await serveForTest(test, { requestTimeoutSeconds: 1, maxConnections: 20 })
  const stalled = await stall(server.url, 20, 'GET /v1/pets HTTP/1.1\r\nHost: x\r\n')
  const closed = stalled.map((socket) => new Promise((resolve) => socket.once('close', resolve)))
  // Over the cap: the server closes the new connection without an answer.
  await expect(call(`${server.url}/healthz`)).rejects.toThrow()
  await Promise.all(closed)
  await sleep(50)
  expect((await call(`${server.url}/healthz`)).status).toBe(200)
})

it('lets fetch read the 413 of a 4 MiB body, never a reset', async (test) => {
  const server = await serveForTest(test)
  const authorization = `Bearer ${await server.issueKey({ plan: 'pro' })}`
  for (let attempt = 0; attempt < 10; attempt++) {
    const reply = await call(`${server.api}/pets`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(newPet({ name: 'x'.repeat(4 * 1024 * 1024) })),
    })
    expect(reply.status).toBe(413)
    expectErrorBody(reply, 'payload_too_large')
    expectSpecResponse(reply, 'createPet')
  }
})

it('keeps reading a refused body after its 413, so a client sending it all reads the answer', async (test) => {
  const server = await serveForTest(test)
  const authorization = `Bearer ${await server.issueKey({ plan: 'pro' })}`
  const socket = await open(server.url, { allowHalfOpen: true })
  const errors: Error[] = []
  socket.on('error', (error) => errors.push(error))
  const closed = new Promise((resolve) => socket.once('close', resolve))
  const received: Buffer[] = []
  const answered = new Promise<void>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk)
      if (parseable(Buffer.concat(received).toString('utf8'))) resolve()
    })
  })
  const total = 4 * 1024 * 1024
  socket.write(
    `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${authorization}\r\nContent-Type: application/json\r\nContent-Length: ${total}\r\n\r\n`,
  )
  await answered
  // The whole body goes out only after the answer came: the server must still be reading it.
  const chunk = Buffer.alloc(64 * 1024, 'x')
  for (let sent = 0; sent < total && errors.length === 0; sent += chunk.length) {
    await new Promise<void>((resolve) => socket.write(chunk, () => resolve()))
  }
  socket.end()
  await closed
  expect(errors).toEqual([])
  const reply = parseResponse(Buffer.concat(received).toString('utf8'))
  expect(reply.status).toBe(413)
  expectErrorBody(reply, 'payload_too_large')
  expectSpecResponse(reply, 'createPet')
  expect(reply.headers.get('connection')).toBe('close')
})

/** True once `text` holds a whole response with its Content-Length body. */
function parseable(text: string): boolean {
  const split = text.indexOf('\r\n\r\n')
  const length = /\r\ncontent-length: (\d+)\r\n/i.exec(text)?.[1]
  return split >= 0 && length !== undefined && text.length - split - 4 >= Number(length)
}

describe('PETSTORE_TRUST_PROXY', () => {
  const viaProxy = (server: TestServer, client: string) =>
    rawRequest(
      server.url,
      `GET /v1/openapi.json HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: ${client}\r\nConnection: close\r\n\r\n`,
    )

  it('counts per forwarded client address behind a trusted proxy', async (test) => {
    const server = await serveForTest(test, { trustProxy: ['127.0.0.1'] })
    const first = await viaProxy(server, '203.0.113.7')
    const again = await viaProxy(server, '203.0.113.7')
    const other = await viaProxy(server, '198.51.100.9')
    expect([first.status, again.status, other.status]).toEqual([200, 200, 200])
    expect(minuteLeft(again)).toBe(minuteLeft(first) - 1)
    expect(minuteLeft(other)).toBe(minuteLeft(first))
  })

  it('trusts a hop count', async (test) => {
    const server = await serveForTest(test, { trustProxy: 1 })
    const first = await viaProxy(server, '203.0.113.7')
    const other = await viaProxy(server, '10.9.8.7, 198.51.100.9')
    expect(minuteLeft(other)).toBe(minuteLeft(first))
  })

  it('ignores X-Forwarded-For when off (the default)', async (test) => {
    const server = await serveForTest(test)
    const first = await viaProxy(server, '203.0.113.7')
    const other = await viaProxy(server, '198.51.100.9')
    expect(minuteLeft(other)).toBe(minuteLeft(first) - 1)
  })
})
