import { describe, expect, it } from 'vitest'
import { createPetstoreClient, unwrap } from '../src/index.js'
import { ResponseMeta } from '../src/meta.js'
import { apiError, newPet, realPetstore, scriptedServer } from './helpers.js'

const petstore = realPetstore()

const client = () =>
  createPetstoreClient({
    baseUrl: `${petstore.url}/v1`,
    apiKey: petstore.apiKey,
    onDeprecation: () => {},
  })

describe('meta against the real server', () => {
  it('reads the request id, rate limits and next page of listPets', async () => {
    const petstoreClient = client()
    for (const name of ['Rex', 'Bella']) {
      unwrap(await petstoreClient.POST('/pets', { body: newPet({ name }) }))
    }
    const first = await petstoreClient.GET('/pets', { params: { query: { limit: 1 } } })
    expect(first.meta.requestId).toBe(first.response.headers.get('X-Request-Id'))
    expect(first.meta.next?.url).toMatch(new RegExp(`^${petstore.url}/v1/pets\\?.*cursor=`))
    expect(first.meta.next?.cursor).toEqual(expect.any(String))
    const { rateLimit } = first.meta
    expect(rateLimit?.windows.map((window) => window.name)).toEqual(['minute', 'day'])
    expect(rateLimit?.limit).toBe(100_000)
    expect(rateLimit?.reset).toBeInstanceOf(Date)

    const second = await petstoreClient.GET('/pets', {
      params: { query: { limit: 1, cursor: first.meta.next?.cursor } },
    })
    expect(second.data?.[0]?.id).not.toBe(first.data?.[0]?.id)
  })

  it('reads getPet’s deprecation and sunset as dates, on errors too', async () => {
    const missing = await client().GET('/pets/{petId}', { params: { path: { petId: 999_999 } } })
    expect(missing.response.status).toBe(404)
    expect(missing.meta.deprecation).toBeInstanceOf(Date)
    expect(missing.meta.sunset?.toISOString()).toBe('2030-12-05T00:00:00.000Z')
    expect(missing.meta.requestId).toEqual(expect.any(String))
  })

  it('parses nothing until a field is read', async () => {
    const { meta } = await client().GET('/pets', { params: { query: { limit: 1 } } })
    expect(meta).toBeInstanceOf(ResponseMeta)
    expect(Object.keys(meta)).toEqual([])
  })

  it('reads Retry-After as milliseconds', async () => {
    const server = await scriptedServer([
      apiError(503, 'service_unavailable', { 'Retry-After': '7' }),
    ])
    try {
      const scripted = createPetstoreClient({
        baseUrl: `${server.url}/v1`,
        apiKey: petstore.apiKey,
        retry: false,
      })
      const { error, meta } = await scripted.POST('/pets', { body: newPet() })
      expect(error?.code).toBe('service_unavailable')
      expect(meta.retryAfterMs).toBe(7000)
      expect(meta.requestId).toBeUndefined()
    } finally {
      await server.close()
    }
  })
})
