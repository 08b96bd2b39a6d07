import { inspect } from 'node:util'
import { describe, expect, it } from 'vitest'
import {
  createPetstoreClient,
  type LogSink,
  type PetstoreClient,
  type PetstoreClientOptions,
  PetstoreConnectionError,
} from '../../src/index.js'
import {
  apiError,
  newPet,
  realPetstore,
  recordingClock,
  type Step,
  scriptedServer,
} from '../helpers.js'

const petstore = realPetstore()

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

/** A client with `logger` on a scripted server, its waits skipped; closed after `use`. */
async function withScripted(
  steps: Step[],
  options: Partial<PetstoreClientOptions>,
  use: (client: PetstoreClient) => Promise<void>,
) {
  const server = await scriptedServer(steps)
  try {
    const baseUrl = `${server.url}/v1`
    await use(
      createPetstoreClient({
        baseUrl,
        apiKey: petstore.apiKey,
        clock: recordingClock(),
        ...options,
      }),
    )
  } finally {
    await server.close()
  }
}

describe('the logger option', () => {
  it('logs each call at info with its outcome, and never the key or an idempotency key', async () => {
    const { lines, sink, text } = capture()
    const client = createPetstoreClient({
      baseUrl: `${petstore.url}/v1`,
      apiKey: petstore.apiKey,
      logger: { level: 'debug', sink },
    })
    const idempotencyKey = `order-${crypto.randomUUID()}`
    const created = await client.POST('/pets', {
      params: { header: { 'Idempotency-Key': idempotencyKey } },
      body: newPet(),
    })
    await client.POST('/pets', { body: newPet({ name: 'Bella' }) })
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
    expect(all).not.toContain(petstore.apiKey)
    expect(all).not.toContain(idempotencyKey)
  })

  it('warns about each retry and counts retries in the outcome', async () => {
    const { lines, sink, text } = capture()
    const steps: Step[] = [apiError(503, 'service_unavailable'), { status: 200, body: [] }]
    await withScripted(steps, { logger: { level: 'info', sink } }, async (client) => {
      await client.GET('/pets')
    })
    expect(lines.map((line) => [line.level, line.message])).toEqual([
      ['warn', expect.stringMatching(/^GET http:.*\/v1\/pets: retry 1 in \d+ ms after HTTP 503$/)],
      ['info', expect.stringMatching(/^GET \/pets 200 in \d+ ms$/)],
    ])
    expect(lines[1]?.details?.retries).toBe(1)
    expect(text().join('\n')).not.toContain(petstore.apiKey)
  })

  it('logs a call that got no answer at error, and only warnings and errors by default', async () => {
    const { lines, sink, text } = capture()
    const options = { retry: { maxRetries: 1 }, logger: { sink } }
    await withScripted(['drop'], options, async (client) => {
      await expect(client.GET('/pets')).rejects.toBeInstanceOf(PetstoreConnectionError)
    })
    expect(lines.map((line) => line.level)).toEqual(['warn', 'error'])
    expect(lines[1]?.message).toMatch(/^GET \/pets failed: GET http:.* failed: no response$/)
    expect(lines[1]?.details?.error).toBeInstanceOf(PetstoreConnectionError)
    expect(text().join('\n')).not.toContain(petstore.apiKey)
  })
})
