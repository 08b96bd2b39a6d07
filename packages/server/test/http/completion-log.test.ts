/**
 * Every answer has one `request completed` log line carrying its X-Request-Id, those refused
 * below the routes included (router refusals, raw answers of Node's parser, timeouts), and its
 * URL with only the query parameters the spec declares.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.js'
import { configWith } from '../../src/config.js'
import { logCompletion, loggedUrl } from '../../src/http/completion-log.js'
import { specOperations } from '../../src/spec/operations.js'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import type { Store } from '../../src/store/store.js'
import { call, type Reply } from '../helpers.js'
import { rawRequest } from './raw.js'

let dir: string
let app: FastifyInstance
let store: Store
let url: string
const lines: Record<string, unknown>[] = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-log-'))
  store = openSqliteStore(join(dir, 'petstore.db'))
  const config = configWith({
    logLevel: 'info',
    cursorSecret: 'x'.repeat(32),
    requestTimeoutSeconds: 1,
  })
  app = await buildApp(config, {
    store,
    logStream: { write: (line: string) => lines.push(JSON.parse(line)) },
  })
  url = await app.listen({ host: '127.0.0.1', port: 0 })
})
afterAll(async () => {
  await app.close()
  await store.close()
  rmSync(dir, { recursive: true, force: true })
})

/** The completion lines of the reply's X-Request-Id, once its answer is logged. */
async function completionsOf(reply: Reply) {
  const id = reply.headers.get('x-request-id')
  expect(id).toBeTruthy()
  const mine = () =>
    lines.filter((line) => line.requestId === id && line.msg === 'request completed')
  for (let polls = 0; polls < 100 && mine().length === 0; polls++) {
    await new Promise((resolve) => setImmediate(resolve))
  }
  return mine()
}

it.each([
  ['a routed answer', () => call(`${url}/healthz`)],
  ['bad percent-encoding', () => call(`${url}/v1/pets/%ff`)],
  ['an over-long path parameter', () => call(`${url}/v1/pets/${'9'.repeat(500)}`)],
  [
    'oversized headers (raw 431)',
    () =>
      rawRequest(url, `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
  ],
  [
    'an unknown method (raw 400)',
    () => rawRequest(url, 'BREW /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n'),
  ],
  ['stalled headers (raw 408)', () => rawRequest(url, 'GET /v1/pets HTTP/1.1\r\nHost: x\r\n')],
])('%s is logged once with its request id and status', async (_, send) => {
  const reply = await send()
  const logged = await completionsOf(reply)
  expect(logged).toHaveLength(1)
  expect(logged[0]).toMatchObject({ statusCode: reply.status })
})

describe('the logged URL', () => {
  const declared = [
    ...new Set(
      specOperations.flatMap((operation) =>
        operation.parameters.filter((p) => p.in === 'query').map((p) => p.name),
      ),
    ),
  ]

  it('keeps every query parameter the spec declares, as sent', () => {
    expect(declared.length).toBeGreaterThan(0)
    const query = declared.map((name, index) => `${name}=v${index}%20x`).join('&')
    expect(loggedUrl(`/v1/pets?${query}`)).toBe(`/v1/pets?${query}`)
    expect(loggedUrl('/v1/pets')).toBe('/v1/pets')
  })

  it('redacts any other, name and value, in place', () => {
    const first = declared[0] as string
    expect(loggedUrl(`/v1/pets?${first}=1&api_key=psk_live_secret&psk_live_other&&%6Cimit=2`)).toBe(
      `/v1/pets?${first}=1&[redacted]&[redacted]&&[redacted]`,
    )
  })

  it('is what the line of a real request carries', async () => {
    const reply = await call(`${url}/v1/pets?api_key=psk_live_${'ab'.repeat(24)}&limit=5`)
    const [logged] = await completionsOf(reply)
    expect(logged?.url).toBe('/v1/pets?[redacted]&limit=5')
    expect(JSON.stringify(lines)).not.toContain('psk_live_abab')
  })
})

describe('the completion line', () => {
  const completion = {
    requestId: 'req-"1"',
    method: 'GET',
    url: '/v1/pets?status=%22a\\b"\u2028é',
    statusCode: 200,
    ms: 3,
  }
  const loggerWriting = (to: string[], level = 'info') =>
    pino(
      { level, base: { pid: 7, hostname: 'h' }, timestamp: () => ',"time":1' },
      { write: (line: string) => to.push(line) },
    )

  it("is byte for byte the line pino's info() writes", () => {
    const ours: string[] = []
    const pinos: string[] = []
    logCompletion(loggerWriting(ours), completion)
    loggerWriting(pinos).info(completion, 'request completed')
    expect(ours).toEqual(pinos)
    expect(JSON.parse(ours[0] ?? '')).toMatchObject({ ...completion, msg: 'request completed' })
  })

  it('carries the bindings of a child logger', () => {
    const ours: string[] = []
    const pinos: string[] = []
    logCompletion(loggerWriting(ours).child({ worker: 2 }), completion)
    loggerWriting(pinos).child({ worker: 2 }).info(completion, 'request completed')
    expect(ours).toEqual(pinos)
  })

  it('is not written above the info level', () => {
    const lines: string[] = []
    logCompletion(loggerWriting(lines, 'warn'), completion)
    expect(lines).toEqual([])
  })
})
