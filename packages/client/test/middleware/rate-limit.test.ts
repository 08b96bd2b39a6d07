import { type RunningPetstore, startPetstore } from '@petstore/server'
import type { paths } from '@petstore/types'
import createClient from 'openapi-fetch'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import type { RateLimitInfo } from '../../src/http/rate-limit-headers.js'
import { createPetstoreClient } from '../../src/index.js'
import { auth } from '../../src/middleware/auth.js'
import { type RateLimitOptions, rateLimit } from '../../src/middleware/rate-limit.js'
import { retry } from '../../src/middleware/retry.js'
import {
  manualClock,
  recordingClock,
  scriptedServer,
  stalledClock,
  type TestServer,
  windowServer,
} from '../helpers.js'

const servers: TestServer[] = []

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function windowed(quota: number, windowSeconds: number, options: RateLimitOptions = {}) {
  const clock = recordingClock()
  const server = await windowServer(clock, quota, windowSeconds)
  servers.push(server)
  const limits = rateLimit({ clock, ...options })
  const client = createClient<paths>({ baseUrl: `${server.url}/v1` })
  client.use(auth('key-1'), limits, retry({ clock, maxRetries: 0 }))
  return { server, client, clock, limits }
}

describe('rateLimit', () => {
  it('an unpaced loop earns 429s from a small window', async () => {
    const { server, client } = await windowed(3, 10, { pace: false })
    const statuses: number[] = []
    for (let i = 0; i < 7; i++) statuses.push((await client.GET('/pets')).response.status)
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429])
    expect(server.limited()).toBe(4)
  })

  it('a paced loop waits for the reset instead and is never limited', async () => {
    const { server, client, clock } = await windowed(3, 10)
    const statuses: number[] = []
    for (let i = 0; i < 7; i++) statuses.push((await client.GET('/pets')).response.status)
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200])
    expect(server.limited()).toBe(0)
    expect(clock.waits).toHaveLength(2)
    for (const wait of clock.waits) expect(wait).toBeLessThanOrEqual(10_000)
  })

  it('paces parallel calls by counting requests still in flight', async () => {
    const clock = manualClock()
    const server = await windowServer(clock, 3, 10)
    servers.push(server)
    const client = createClient<paths>({ baseUrl: server.url })
    client.use(rateLimit({ clock }), retry({ clock, maxRetries: 0 }))
    await client.GET('/pets')
    const calls = Array.from({ length: 5 }, () => client.GET('/pets'))
    await vi.waitFor(() => {
      expect(server.requests).toHaveLength(3)
      expect(clock.pending()).toBe(3)
    })
    clock.advance(10_000)
    const statuses = (await Promise.all(calls)).map(({ response }) => response.status)
    expect(statuses).toEqual([200, 200, 200, 200, 200])
    expect(server.requests).toHaveLength(6)
    expect(server.limited()).toBe(0)
  })

  it('does not block on a reset further away than maxWaitMs', async () => {
    const { server, client, clock } = await windowed(1, 3600)
    await client.GET('/pets')
    const { response } = await client.GET('/pets')
    expect(response.status).toBe(429)
    expect(clock.waits).toEqual([])
    expect(server.limited()).toBe(1)
  })

  it('keeps the last limits per key, reset as a Date, and reports each response', async () => {
    const seen: Array<[string, RateLimitInfo]> = []
    const { client, clock, limits } = await windowed(5, 60, {
      onRateLimit: (info, { key }) => seen.push([key, info]),
    })
    await client.GET('/pets')
    await client.GET('/pets')
    const info = limits.get('key-1')
    expect(info).toMatchObject({ limit: 5, remaining: 3 })
    expect(info?.reset).toBeInstanceOf(Date)
    expect(info?.reset.getTime()).toBeGreaterThan(clock.now())
    expect(info?.windows).toEqual([
      { name: 'minute', limit: 5, remaining: 3, reset: expect.any(Date), windowSeconds: 60 },
    ])
    expect(limits.get()).toBe(info)
    expect(limits.get('another-key')).toBeUndefined()
    expect(seen.map(([key, { remaining }]) => [key, remaining])).toEqual([
      ['key-1', 4],
      ['key-1', 3],
    ])
  })

  it('keeps the limits of each bearer key apart', async () => {
    const clock = recordingClock()
    const server = await windowServer(clock, 5, 60)
    servers.push(server)
    const limits = rateLimit({ clock })
    const client = createClient<paths>({ baseUrl: server.url })
    client.use(limits)
    for (const key of ['key-a', 'key-b', 'key-a']) {
      await client.GET('/pets', { headers: { Authorization: `Bearer ${key}` } })
    }
    expect(limits.get('key-a')?.remaining).toBe(2)
    expect(limits.get('key-b')?.remaining).toBe(3)
    expect(limits.get()).toBe(limits.get('key-a'))
  })

  it('understands X-RateLimit-* alone', async () => {
    const clock = recordingClock()
    const reset = Math.ceil(clock.now() / 1000) + 30
    const server = await scriptedServer([
      {
        status: 200,
        headers: {
          'X-RateLimit-Limit': '10',
          'X-RateLimit-Remaining': '0',
          'X-RateLimit-Reset': String(reset),
        },
        body: [],
      },
    ])
    servers.push(server)
    const limits = rateLimit({ clock })
    const client = createClient<paths>({ baseUrl: server.url })
    client.use(limits)
    await client.GET('/pets')
    expect(limits.get('anonymous')).toMatchObject({
      limit: 10,
      remaining: 0,
      reset: new Date(reset * 1000),
    })
    await client.GET('/pets')
    expect(clock.waits).toHaveLength(1)
    expect(clock.now()).toBe(reset * 1000)
    expect(server.requests).toHaveLength(2)
  })

  it('stops a pacing wait when the caller aborts', async () => {
    const clock = stalledClock()
    const server = await windowServer(clock, 1, 10)
    servers.push(server)
    const client = createClient<paths>({ baseUrl: server.url })
    client.use(rateLimit({ clock }))
    await client.GET('/pets')
    const controller = new AbortController()
    const call = client.GET('/pets', { signal: controller.signal })
    await clock.sleeping
    controller.abort()
    await expect(call).rejects.toMatchObject({ name: 'AbortError' })
    expect(server.requests).toHaveLength(1)
  })
})

describe('two clients in one process', () => {
  let petstore: RunningPetstore | undefined
  afterAll(async () => {
    await petstore?.close()
  })

  it('keep their budgets apart: one key spent paces only its own client', async () => {
    petstore = await startPetstore()
    const issue = (perMinute: number) =>
      (petstore as RunningPetstore).issueKey({ plan: 'enterprise', perMinute, perDay: 10_000 })
    const clients = await Promise.all(
      [2, 1000].map(async (perMinute) => {
        const clock = recordingClock()
        const client = createPetstoreClient({
          baseUrl: `${(petstore as RunningPetstore).url}/v1`,
          apiKey: await issue(perMinute),
          clock,
          retry: false,
        })
        return { client, clock }
      }),
    )
    const [small, large] = clients as [(typeof clients)[0], (typeof clients)[0]]
    // Alternating, so that each call's key differs from the one before it in this process.
    for (let round = 0; round < 3; round++) {
      for (const { client } of [small, large]) await client.GET('/pets', { params: { query: {} } })
    }
    // The small key's two requests spent its minute: its third call waited for the reset.
    expect(small.clock.waits).toHaveLength(1)
    expect(small.clock.waits[0]).toBeGreaterThan(0)
    expect(small.client.rateLimit()).toMatchObject({ limit: 2 })
    expect(large.clock.waits).toEqual([])
    expect(large.client.rateLimit()).toMatchObject({ limit: 1000, remaining: 997 })
  })
})
