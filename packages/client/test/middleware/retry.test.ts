import { operationRequestHeaders, type paths } from '@petstore/types'
import createClient from 'openapi-fetch'
import { afterEach, describe, expect, it } from 'vitest'
import { PetstoreConnectionError, PetstoreTimeoutError } from '../../src/errors.js'
import { type RetryEvent, type RetryOptions, retry } from '../../src/middleware/retry.js'
import {
  apiError,
  newPet,
  recordingClock,
  type Step,
  scriptedServer,
  stalledClock,
  storedPet,
  type TestServer,
} from '../helpers.js'

const pet = storedPet()
const servers: TestServer[] = []

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

/**
 * The spec edited to add `POST /test-only/orders`, a create operation that declares no
 * `Idempotency-Key` (its service would ignore one): createPet's body and responses, no header
 * parameters. Absent from the generated facts, it declares no header there either. A path no
 * real resource takes, so that the spec can grow an `/orders` of its own.
 */
type CreateOrder = Omit<paths['/pets']['post'], 'parameters'> & {
  parameters: { query?: never; header?: never; path?: never; cookie?: never }
}
type EditedPaths = paths & {
  '/test-only/orders': Omit<paths['/pets'], 'get' | 'post'> & { get?: never; post: CreateOrder }
}

async function setup(steps: Step[], options: RetryOptions = {}) {
  const server = await scriptedServer(steps)
  servers.push(server)
  const clock = recordingClock()
  const events: RetryEvent[] = []
  const client = createClient<EditedPaths>({ baseUrl: `${server.url}/v1` })
  client.use(retry({ clock, onRetry: (event) => events.push(event), ...options }))
  return { server, client, clock, events }
}

describe('retry', () => {
  it('retries a GET on 503 with exponential backoff within the jitter bounds', async () => {
    const { server, client, clock } = await setup(
      [
        apiError(503, 'service_unavailable'),
        apiError(503, 'service_unavailable'),
        { status: 200, body: [pet] },
      ],
      { random: Math.random },
    )
    const { data } = await client.GET('/pets')
    expect(data).toEqual([pet])
    expect(server.requests).toHaveLength(3)
    const [first = 0, second = 0] = clock.waits
    expect(first).toBeGreaterThanOrEqual(500 * 0.75)
    expect(first).toBeLessThanOrEqual(500)
    expect(second).toBeGreaterThanOrEqual(1000 * 0.75)
    expect(second).toBeLessThanOrEqual(1000)
  })

  it('caps the backoff at maxDelayMs', async () => {
    const { clock } = await setup([apiError(502, 'internal_error')], {
      maxRetries: 4,
      initialDelayMs: 1000,
      maxDelayMs: 3000,
      jitter: 0,
    }).then(async (ctx) => {
      await ctx.client.GET('/pets')
      return ctx
    })
    expect(clock.waits).toEqual([1000, 2000, 3000, 3000])
  })

  it('makes two retries by default, then returns the last error as a value', async () => {
    const { server, client } = await setup([apiError(504, 'internal_error')])
    const { error, response } = await client.GET('/pets')
    expect(response.status).toBe(504)
    expect(error).toMatchObject({ status: 504 })
    expect(server.requests).toHaveLength(3)
  })

  it('honours Retry-After in seconds on 429', async () => {
    const { server, client, clock } = await setup([
      apiError(429, 'rate_limited', { 'Retry-After': '7' }),
      { status: 200, body: [] },
    ])
    const { data } = await client.GET('/pets')
    expect(data).toEqual([])
    expect(server.requests).toHaveLength(2)
    expect(clock.waits).toEqual([7000])
  })

  it('honours Retry-After as an HTTP date', async () => {
    const clock = recordingClock(Date.parse('Thu, 05 Dec 2030 00:00:00 GMT'))
    const { server, client } = await setup(
      [
        apiError(429, 'rate_limited', { 'Retry-After': 'Thu, 05 Dec 2030 00:00:12 GMT' }),
        { status: 200, body: [] },
      ],
      { clock },
    )
    await client.GET('/pets')
    expect(server.requests).toHaveLength(2)
    expect(clock.waits).toEqual([12_000])
  })

  it('returns a 429 at once when Retry-After is beyond maxRetryAfterMs', async () => {
    const { server, client } = await setup([
      apiError(429, 'rate_limited', { 'Retry-After': '3600' }),
    ])
    const { error } = await client.GET('/pets')
    expect(error?.code).toBe('rate_limited')
    expect(server.requests).toHaveLength(1)
  })

  it('surfaces a ban at once', async () => {
    const { server, client } = await setup([
      apiError(429, 'api_key_banned', { 'Retry-After': '5' }),
    ])
    const { error } = await client.GET('/pets')
    expect(error?.code).toBe('api_key_banned')
    expect(server.requests).toHaveLength(1)
  })

  it.each([
    [400, 'invalid_request'],
    [401, 'unauthorized'],
    [404, 'not_found'],
    [422, 'idempotency_key_reused'],
    [500, 'internal_error'],
  ])('never retries %i', async (status, code) => {
    const { server, client } = await setup([apiError(status, code)])
    const { error } = await client.POST('/pets', { body: newPet() })
    expect(error?.status).toBe(status)
    expect(server.requests).toHaveLength(1)
  })

  it('gives createPet, which declares Idempotency-Key, one key re-sent with the same body on every attempt', async () => {
    expect(operationRequestHeaders.createPet).toContain('Idempotency-Key')
    const { server, client } = await setup([
      apiError(503, 'service_unavailable'),
      'drop',
      { status: 201, body: pet },
    ])
    const { data } = await client.POST('/pets', { body: newPet() })
    expect(data).toEqual(pet)
    expect(server.requests).toHaveLength(3)
    const keys = new Set(server.requests.map((request) => request.headers['idempotency-key']))
    expect(keys.size).toBe(1)
    expect([...keys][0]).toMatch(/^"[0-9a-f-]{36}"$/)
    for (const request of server.requests) {
      expect(JSON.parse(request.body)).toEqual(newPet())
      expect(request.headers['content-type']).toBe('application/json')
    }
  })

  it('retries a keyed createPet that timed out, with the same key', async () => {
    // Long enough that each attempt reaches the scripted server even on a loaded machine.
    const { server, client } = await setup(['hang', { status: 201, body: pet }], {
      timeoutMs: 1000,
    })
    const { data } = await client.POST('/pets', { body: { name: 'Rex', categoryId: 1 } })
    expect(data).toEqual(pet)
    expect(server.requests).toHaveLength(2)
    const [first, second] = server.requests.map((request) => request.headers['idempotency-key'])
    expect(first).toMatch(/^"[0-9a-f-]{36}"$/)
    expect(second).toBe(first)
  })

  it('gives a POST whose operation declares no Idempotency-Key no key, and no retry after a timeout', async () => {
    const { server, client, events } = await setup(['hang', { status: 201, body: pet }], {
      timeoutMs: 1000,
    })
    const failure = await client
      .POST('/test-only/orders', { body: { name: 'Rex', categoryId: 1 } })
      .catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(PetstoreTimeoutError)
    expect(events).toEqual([])
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0]?.headers['idempotency-key']).toBeUndefined()
  })

  it.each([
    ['a lost connection', 'drop' as const],
    ['a 503', apiError(503, 'service_unavailable')],
  ])(
    'does not retry a POST whose operation declares no Idempotency-Key after %s',
    async (_, step) => {
      const { server, client } = await setup([step, { status: 201, body: pet }])
      await client
        .POST('/test-only/orders', { body: { name: 'Rex', categoryId: 1 } })
        .catch(() => undefined)
      expect(server.requests).toHaveLength(1)
    },
  )

  it('does not retry a POST to such an operation even with a key the caller sent', async () => {
    const { server, client } = await setup([apiError(503, 'service_unavailable')])
    await client.POST('/test-only/orders', {
      body: { name: 'Rex', categoryId: 1 },
      headers: { 'Idempotency-Key': 'order-42' },
    })
    // The operation ignores the header, so a retry could create a second order.
    expect(server.requests).toHaveLength(1)
  })

  it('keeps an Idempotency-Key given by the call', async () => {
    const { server, client } = await setup([
      apiError(503, 'service_unavailable'),
      { status: 201, body: pet },
    ])
    await client.POST('/pets', {
      params: { header: { 'Idempotency-Key': 'order-42' } },
      body: newPet(),
    })
    expect(server.requests.map((request) => request.headers['idempotency-key'])).toEqual([
      'order-42',
      'order-42',
    ])
  })

  it('never replays a POST without an Idempotency-Key', async () => {
    const { server, client } = await setup([apiError(503, 'service_unavailable')], {
      idempotencyKeys: false,
    })
    const { error } = await client.POST('/pets', { body: newPet() })
    expect(error?.status).toBe(503)
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0]?.headers['idempotency-key']).toBeUndefined()
  })

  it('retries a keyed POST while the first attempt is still in progress (409)', async () => {
    const { server, client } = await setup([
      apiError(409, 'idempotency_key_in_progress'),
      { status: 201, body: pet },
    ])
    const { data } = await client.POST('/pets', { body: newPet() })
    expect(data).toEqual(pet)
    expect(server.requests).toHaveLength(2)
  })

  it('does not retry another 409', async () => {
    const { server, client } = await setup([apiError(409, 'conflict')])
    await client.POST('/pets', { body: newPet() })
    expect(server.requests).toHaveLength(1)
  })

  it('retries a dropped connection and throws a connection error when every attempt fails', async () => {
    const { server, client, events } = await setup(['drop'])
    const failure = await client.GET('/pets').catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(PetstoreConnectionError)
    expect(failure).not.toBeInstanceOf(PetstoreTimeoutError)
    expect(server.requests).toHaveLength(3)
    expect(events.map((event) => [event.retry, event.error?.name])).toEqual([
      [1, 'PetstoreConnectionError'],
      [2, 'PetstoreConnectionError'],
    ])
  })

  it('retries an attempt that times out', async () => {
    // Long enough that each attempt reaches the scripted server even on a loaded machine.
    const { server, client } = await setup(['hang', { status: 200, body: [pet] }], {
      timeoutMs: 1000,
    })
    const { data } = await client.GET('/pets')
    expect(data).toEqual([pet])
    expect(server.requests).toHaveLength(2)
  })

  it('throws a timeout error, distinct from HTTP errors, once retries are spent', async () => {
    const { client, events } = await setup(['hang'])
    const failure = await client
      .GET('/pets', { timeoutMs: 50, retry: { maxRetries: 1 } })
      .catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(PetstoreTimeoutError)
    expect(failure).toMatchObject({ timeoutMs: 50, method: 'GET' })
    // Counted on the client's side: on a loaded machine a 50 ms attempt can time out before
    // its connection reaches the server, so the server's count would say nothing reliable.
    expect(events.map((event) => [event.retry, event.error?.name])).toEqual([
      [1, 'PetstoreTimeoutError'],
    ])
  })

  it('lets a call turn retries off', async () => {
    const { server, client } = await setup([apiError(503, 'service_unavailable')])
    await client.GET('/pets', { retry: false })
    expect(server.requests).toHaveLength(1)
  })

  it('stops waiting and rejects when the caller aborts during a wait', async () => {
    const clock = stalledClock()
    const { server, client } = await setup([apiError(503, 'service_unavailable')], { clock })
    const controller = new AbortController()
    const call = client.GET('/pets', { signal: controller.signal })
    await clock.sleeping
    controller.abort()
    await expect(call).rejects.toMatchObject({ name: 'AbortError' })
    expect(server.requests).toHaveLength(1)
  })

  it('reports each retry with the response that caused it', async () => {
    const { client, events } = await setup([
      apiError(429, 'rate_limited', { 'Retry-After': '1' }),
      { status: 200, body: [] },
    ])
    await client.GET('/pets')
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ retry: 1, delayMs: 1000 })
    expect(events[0]?.response?.status).toBe(429)
  })
})
