import { inspect } from 'node:util'
import { type RunningPetstore, startPetstore } from '@petstore/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPetstoreClient, type LogSink, PetstoreConnectionError } from '../../src/index.js'
import { apiError, recordingClock, scriptedServer } from '../helpers.js'

let petstore: RunningPetstore
let apiKey: string

beforeAll(async () => {
  petstore = await startPetstore()
  apiKey = await petstore.issueKey({ plan: 'enterprise', perMinute: 100_000, perDay: 1_000_000 })
})

afterAll(async () => {
  await petstore?.close()
})

interface Line {
  level: keyof LogSink
  message: string
  details: Record<string, unknown> | undefined
}

/** A sink that keeps every line, and the whole of it as text (details inspected in depth). */
function capture() {
  const lines: Line[] = []
  const at = (level: keyof LogSink) => (message: string, details?: Record<string, unknown>) =>
    lines.push({ level, message, details })
  const sink: LogSink = {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
  }
  const text = () =>
    lines.map((line) => `${line.message} ${inspect(line.details, { depth: null })}`)
  return { lines, sink, text }
}

describe('the logger option', () => {
  it('logs each call at info with its outcome, and never the key or an idempotency key', async () => {
    const { lines, sink, text } = capture()
    const client = createPetstoreClient({
      baseUrl: `${petstore.url}/v1`,
      apiKey,
      logger: { level: 'debug', sink },
    })
    const idempotencyKey = `order-${crypto.randomUUID()}`
    const created = await client.POST('/pets', {
      params: { header: { 'Idempotency-Key': idempotencyKey } },
      body: { name: 'Rex', categoryId: 1 },
    })
    await client.POST('/pets', { body: { name: 'Bella', categoryId: 1 } })
    await client.GET('/pets/{petId}', { params: { path: { petId: created.data?.id ?? 0 } } })

    const info = lines.filter((line) => line.level === 'info')
    expect(info.map((line) => line.message)).toEqual([
      expect.stringMatching(/^POST \/pets 201 in \d+ ms$/),
      expect.stringMatching(/^POST \/pets 201 in \d+ ms$/),
      expect.stringMatching(/^GET \/pets\/\{petId\} 200 in \d+ ms$/),
    ])
    expect(info[0]?.details).toEqual({
      method: 'POST',
      path: '/pets',
      status: 201,
      durationMs: expect.any(Number),
      requestId: created.meta.requestId,
      retries: 0,
    })
    const sent = lines.filter((line) => line.level === 'debug')
    expect(sent[1]?.details?.headers).toMatchObject({
      authorization: '[redacted]',
      'idempotency-key': '[redacted]',
    })
    expect(lines.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual([
      expect.stringContaining('getPet (GET /pets/{petId}) is deprecated'),
    ])
    const all = text().join('\n')
    expect(all).not.toContain(apiKey)
    expect(all).not.toContain(idempotencyKey)
  })

  it('warns about each retry and counts retries in the outcome', async () => {
    const server = await scriptedServer([
      apiError(503, 'service_unavailable'),
      { status: 200, body: [] },
    ])
    const { lines, sink, text } = capture()
    try {
      const client = createPetstoreClient({
        baseUrl: `${server.url}/v1`,
        apiKey,
        clock: recordingClock(),
        logger: { level: 'info', sink },
      })
      await client.GET('/pets')
      expect(lines.map((line) => [line.level, line.message])).toEqual([
        [
          'warn',
          expect.stringMatching(/^GET http:.*\/v1\/pets: retry 1 in \d+ ms after HTTP 503$/),
        ],
        ['info', expect.stringMatching(/^GET \/pets 200 in \d+ ms$/)],
      ])
      expect(lines[1]?.details?.retries).toBe(1)
      expect(text().join('\n')).not.toContain(apiKey)
    } finally {
      await server.close()
    }
  })

  it('logs a call that got no answer at error, and only warnings and errors by default', async () => {
    const server = await scriptedServer(['drop'])
    const { lines, sink, text } = capture()
    try {
      const client = createPetstoreClient({
        baseUrl: `${server.url}/v1`,
        apiKey,
        clock: recordingClock(),
        retry: { maxRetries: 1 },
        logger: { sink },
      })
      await expect(client.GET('/pets')).rejects.toBeInstanceOf(PetstoreConnectionError)
      expect(lines.map((line) => line.level)).toEqual(['warn', 'error'])
      expect(lines[1]?.message).toMatch(/^GET \/pets failed: GET http:.* failed: no response$/)
      expect(lines[1]?.details?.error).toBeInstanceOf(PetstoreConnectionError)
      expect(text().join('\n')).not.toContain(apiKey)
    } finally {
      await server.close()
    }
  })
})
