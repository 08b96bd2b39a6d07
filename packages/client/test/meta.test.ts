import { operationsOf, resolveRef } from '@petstore/types/openapi'
import { openapiDocument } from '@petstore/types/spec'
import { describe, expect, it } from 'vitest'
import { fieldName, hasOwnField } from '../src/header-fields.js'
import { createPetstoreClient, unwrap } from '../src/index.js'
import { ResponseMeta } from '../src/meta.js'
import { apiError, newPet, realPetstore, scriptedServer } from './helpers.js'

const petstore = realPetstore()

type Node = Record<string, unknown>

/** The headers the spec declares for one response of an operation: name, required, type. */
function declaredHeaders(operationId: string, status: number) {
  const found = operationsOf(openapiDocument as unknown as Node).find(
    ({ operation }) => operation.operationId === operationId,
  )
  const responses = (found?.operation.responses ?? {}) as Node
  const response = resolveRef<Node>(openapiDocument, responses[String(status)] as Node)
  return Object.entries((response?.headers ?? {}) as Node).map(([name, raw]) => {
    const header = resolveRef<Node>(openapiDocument, raw as Node)
    const schema = resolveRef<Node>(openapiDocument, header.schema as Node)
    return { name, required: header.required === true, type: schema.type }
  })
}

/**
 * Checks that each header the spec declares for `result`'s response and `meta` does not parse
 * is its own camelCase field, holding the text on the wire (its number for an integer schema);
 * a required one must be on the wire. Returns the fields checked.
 */
function expectOwnFields(operationId: string, result: { response: Response; meta: object }) {
  const declared = declaredHeaders(operationId, result.response.status)
  expect(declared, `${operationId} ${result.response.status} declares headers`).not.toEqual([])
  const checked: string[] = []
  for (const { name, required, type } of declared) {
    if (!hasOwnField(name)) continue
    const text = result.response.headers.get(name)
    if (required) expect(text, `${operationId} sends ${name}`).not.toBeNull()
    const expected = text === null ? undefined : type === 'integer' ? Number(text) : text
    const field = fieldName(name)
    expect((result.meta as Record<string, unknown>)[field], field).toEqual(expected)
    checked.push(field)
  }
  return checked
}

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

  it('reads every other declared header into its own field: createPet, a replay, getPet, 401', async () => {
    const petstoreClient = client()
    const key = `meta-${crypto.randomUUID()}`
    const init = { params: { header: { 'Idempotency-Key': key } }, body: newPet() }
    const created = await petstoreClient.POST('/pets', init)
    expect(expectOwnFields('createPet', created)).toEqual(
      expect.arrayContaining(['location', 'etag', 'idempotentReplayed']),
    )
    expect(created.meta.location).toBe(`/v1/pets/${created.data?.id}`)
    expect(created.meta.etag).toMatch(/^"[^"]+"$/)
    expect(created.meta.idempotentReplayed).toBeUndefined()
    const replayed = await petstoreClient.POST('/pets', init)
    expectOwnFields('createPet', replayed)
    expect(replayed.meta.idempotentReplayed).toBe('true')

    const fetched = await petstoreClient.GET('/pets/{petId}', {
      params: { path: { petId: created.data?.id ?? 0 } },
    })
    expect(expectOwnFields('getPet', fetched)).toContain('link')
    // getPet's Link is its deprecation links, handed over as text.
    expect(fetched.meta.link).toMatch(/rel="deprecation"/)
    expect(fetched.meta.etag).toBe(created.meta.etag)

    const stranger = createPetstoreClient({ baseUrl: `${petstore.url}/v1`, apiKey: 'nope' })
    const refused = await stranger.GET('/pets')
    expect(expectOwnFields('listPets', refused)).toContain('wwwAuthenticate')
    expect(refused.meta.wwwAuthenticate).toMatch(/^Bearer realm="petstore"/)
  })

  it('reads an integer header as a number: the preflight’s Access-Control-Max-Age', async () => {
    const preflight = await client().OPTIONS('/openapi.json', {
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET' },
    })
    expect(preflight.response.status).toBe(204)
    expect(expectOwnFields('getOpenApiDocumentOptions', preflight)).toEqual(
      expect.arrayContaining(['allow', 'accessControlMaxAge']),
    )
    expect(preflight.meta.allow).toMatch(/\bGET\b/)
    expect(preflight.meta.accessControlMaxAge).toEqual(expect.any(Number))
  })
})
