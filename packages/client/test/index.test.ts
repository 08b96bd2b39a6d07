import { type RunningPetstore, startPetstore } from '@petstore/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createPetstoreClient,
  type DeprecationNotice,
  type PetstoreClientOptions,
  PetstoreError,
  paginate,
  type RetryEvent,
  unwrap,
} from '../src/index.js'
import { droppingProxy, newPet, recordingClock, type TestServer } from './helpers.js'

let petstore: RunningPetstore
let apiKey: string
const proxies: TestServer[] = []

beforeAll(async () => {
  petstore = await startPetstore()
  apiKey = await petstore.issueKey({ plan: 'enterprise', perMinute: 100_000, perDay: 1_000_000 })
})

afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()))
  await petstore?.close()
})

function client(options: Partial<PetstoreClientOptions> = {}) {
  return createPetstoreClient({
    baseUrl: `${petstore.url}/v1`,
    apiKey,
    clock: recordingClock(),
    onDeprecation: () => {},
    ...options,
  })
}

describe('createPetstoreClient against the real server', () => {
  it('creates, lists and fetches pets', async () => {
    const petstoreClient = client()
    const draft = newPet({ status: 'pending' })
    const created = await petstoreClient.POST('/pets', { body: draft })
    expect(created.response.status).toBe(201)
    expect(created.data).toEqual({ ...draft, id: expect.any(Number) })
    const id = created.data?.id ?? 0

    const listed = await petstoreClient.GET('/pets', {
      params: { query: { status: 'pending', limit: 100 } },
    })
    expect(listed.data).toContainEqual(created.data)

    const fetched = await petstoreClient.GET('/pets/{petId}', { params: { path: { petId: id } } })
    expect(fetched.data).toEqual(created.data)
  })

  it('returns 401, 404 and 400 as typed error values, and throws them with unwrap', async () => {
    const stranger = client({ apiKey: 'not-a-key' })
    const unauthorized = await stranger.GET('/pets')
    expect(unauthorized.error).toMatchObject({ code: 'unauthorized', status: 401 })

    const missing = await client().GET('/pets/{petId}', {
      params: { path: { petId: 987_654_321 } },
    })
    expect(missing.error).toMatchObject({ code: 'not_found', status: 404 })

    const invalid = await client().POST('/pets', { body: newPet({ name: '   ' }) })
    expect(invalid.error).toMatchObject({ code: 'invalid_request', status: 400 })

    const thrown = await stranger
      .GET('/pets')
      .then(unwrap)
      .catch((error: unknown) => error)
    expect(thrown).toBeInstanceOf(PetstoreError)
    expect(thrown).toMatchObject({
      code: 'unauthorized',
      status: 401,
      requestId: expect.any(String),
    })
    const { requestId, response } = thrown as PetstoreError
    expect(requestId).toBe(response.headers.get('X-Request-Id'))
  })

  it('sends the key on every call unless the call brings its own Authorization', async () => {
    const stranger = client({ apiKey: 'not-a-key' })
    expect((await stranger.GET('/pets')).response.status).toBe(401)
    const own = await stranger.GET('/pets', { headers: { Authorization: `Bearer ${apiKey}` } })
    expect(own.response.status).toBe(200)
  })

  it('reports getPet as deprecated once, with its sunset and successor', async () => {
    const notices: DeprecationNotice[] = []
    const petstoreClient = client({ onDeprecation: (notice) => notices.push(notice) })
    const pet = unwrap(await petstoreClient.POST('/pets', { body: newPet({ name: 'Old' }) }))
    await petstoreClient.GET('/pets/{petId}', { params: { path: { petId: pet.id } } })
    await petstoreClient.GET('/pets/{petId}', { params: { path: { petId: pet.id } } })
    expect(notices).toEqual([
      expect.objectContaining({
        operation: 'getPet',
        deprecatedAt: new Date('2026-01-01T00:00:00Z'),
        sunset: new Date('2030-12-05T00:00:00Z'),
        successor: `${petstore.url}/v1/pets`,
      }),
    ])
  })

  it('retries a POST whose answer was lost and creates exactly one pet', async () => {
    const proxy = await droppingProxy(petstore.url, 1)
    proxies.push(proxy)
    const events: RetryEvent[] = []
    const viaProxy = client({
      baseUrl: `${proxy.url}/v1`,
      retry: { onRetry: (event) => events.push(event) },
    })
    const name = `Lucky-${crypto.randomUUID()}`
    const { data, response } = await viaProxy.POST('/pets', {
      body: newPet({ name, categoryId: 7 }),
    })

    expect(response.status).toBe(201)
    expect(response.headers.get('Idempotent-Replayed')).toBe('true')
    expect(events.map((event) => event.error?.name)).toEqual(['PetstoreConnectionError'])
    expect(proxy.requests).toHaveLength(2)
    const keys = proxy.requests.map((request) => request.headers['idempotency-key'])
    expect(keys[0]).toBe(keys[1])

    const matching: number[] = []
    for await (const pet of paginate(client(), 'listPets', { limit: 100 })) {
      if (pet.name === name) matching.push(pet.id)
    }
    expect(matching).toEqual([data?.id])
  })

  it('tracks the limits the server reports for the key', async () => {
    const freeKey = await petstore.issueKey({ plan: 'free' })
    const petstoreClient = client({ apiKey: freeKey })
    await petstoreClient.GET('/pets', { params: { query: { limit: 1 } } })
    const limits = petstoreClient.rateLimit()
    expect(limits).toMatchObject({ limit: 60, remaining: 59 })
    expect(limits?.reset).toBeInstanceOf(Date)
    expect(limits?.windows.map((window) => [window.name, window.limit])).toEqual([
      ['minute', 60],
      ['day', 1000],
    ])
  })

  it('paces on the real server: waits for the reset it announces once the window is spent', async () => {
    const smallKey = await petstore.issueKey({ plan: 'enterprise', perMinute: 2, perDay: 100 })
    const clock = recordingClock()
    const petstoreClient = client({ apiKey: smallKey, clock, retry: false })
    await petstoreClient.GET('/pets', { params: { query: { limit: 1 } } })
    await petstoreClient.GET('/pets', { params: { query: { limit: 1 } } })
    expect(petstoreClient.rateLimit()?.remaining).toBe(0)
    expect(clock.waits).toEqual([])
    // The recording clock returns at once, so the server (on real time) still refuses this one.
    const third = await petstoreClient.GET('/pets', { params: { query: { limit: 1 } } })
    expect(clock.waits).toHaveLength(1)
    expect(clock.waits[0]).toBeGreaterThan(0)
    expect(clock.waits[0]).toBeLessThanOrEqual(60_000)
    expect(third.error?.code).toBe('rate_limited')
  })

  it('retries a 429 after the Retry-After the real server sends', async () => {
    const smallKey = await petstore.issueKey({ plan: 'enterprise', perMinute: 1, perDay: 100 })
    const clock = recordingClock()
    const events: RetryEvent[] = []
    const petstoreClient = client({
      apiKey: smallKey,
      clock,
      pace: false,
      retry: { maxRetries: 1, onRetry: (event) => events.push(event) },
    })
    await petstoreClient.GET('/pets', { params: { query: { limit: 1 } } })
    const limited = await petstoreClient.GET('/pets', { params: { query: { limit: 1 } } })
    expect(limited.error?.code).toBe('rate_limited')
    expect(events).toHaveLength(1)
    const retryAfter = Number(events[0]?.response?.headers.get('Retry-After'))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(clock.waits).toEqual([retryAfter * 1000])
  })

  it('surfaces a ban from the real server at once, without retrying it', async () => {
    const strict = await startPetstore({ banThreshold: 2 })
    try {
      const smallKey = await strict.issueKey({ plan: 'enterprise', perMinute: 1, perDay: 100 })
      const events: RetryEvent[] = []
      const petstoreClient = createPetstoreClient({
        baseUrl: `${strict.url}/v1`,
        apiKey: smallKey,
        clock: recordingClock(),
        pace: false,
        retry: { maxRetries: 5, onRetry: (event) => events.push(event) },
      })
      await petstoreClient.GET('/pets')
      const { error } = await petstoreClient.GET('/pets')
      // The first 429 is retried after its Retry-After; the retry is the second request sent
      // while limited, which the server answers with a ban: that ends the call.
      expect(events.map((event) => event.response?.status)).toEqual([429])
      expect(error?.code).toBe('api_key_banned')
    } finally {
      await strict.close()
    }
  })
})
