import type { OperationFacts } from '@petstore/types'
import { describe, expectTypeOf, it } from 'vitest'
import {
  createPetstoreClient,
  type ErrorMeta,
  type NextPage,
  type OperationAt,
  type OperationMeta,
  type RateLimitInfo,
  type SuccessMeta,
} from '../src/index.js'

const client = createPetstoreClient({ baseUrl: 'http://127.0.0.1:3000/v1', apiKey: 'key' })

describe('meta types, derived from the headers the spec declares', () => {
  it('finds each call’s operation through OperationFacts', () => {
    expectTypeOf<OperationAt<'/pets', 'get'>>().toEqualTypeOf<'listPets'>()
    expectTypeOf<OperationAt<'/pets', 'post'>>().toEqualTypeOf<'createPet'>()
    expectTypeOf<OperationAt<'/pets/{petId}', 'get'>>().toEqualTypeOf<'getPet'>()
  })

  it('has next on listPets only, optional because its Link is', async () => {
    const list = await client.GET('/pets')
    expectTypeOf(list.meta.next).toEqualTypeOf<NextPage | undefined>()
    if (list.error === undefined) expectTypeOf(list.meta.next).toEqualTypeOf<NextPage | undefined>()
    // Only the 200 declares the next link: an error's meta says it is absent.
    else expectTypeOf(list.meta.next).toEqualTypeOf<undefined>()

    const created = await client.POST('/pets', { body: { name: 'Rex', categoryId: 1 } })
    expectTypeOf(created.meta).not.toHaveProperty('next')
    const pet = await client.GET('/pets/{petId}', { params: { path: { petId: 1 } } })
    // getPet's Link is the deprecation one: no next page.
    expectTypeOf(pet.meta).not.toHaveProperty('next')
  })

  it('has deprecation and sunset on getPet only', async () => {
    const pet = await client.GET('/pets/{petId}', { params: { path: { petId: 1 } } })
    if (!pet.error) {
      expectTypeOf(pet.meta.deprecation).toEqualTypeOf<Date>()
      expectTypeOf(pet.meta.sunset).toEqualTypeOf<Date>()
    }
    expectTypeOf<OperationMeta<'listPets'>>().not.toHaveProperty('deprecation')
    expectTypeOf<OperationMeta<'createPet'>>().not.toHaveProperty('sunset')
  })

  it('types the request id and rate limits as required where every response declares them', async () => {
    const list = await client.GET('/pets')
    if (!list.error) {
      expectTypeOf(list.meta.requestId).toEqualTypeOf<string>()
      expectTypeOf(list.meta.rateLimit).toEqualTypeOf<RateLimitInfo>()
    }
    expectTypeOf(list.meta.requestId).toEqualTypeOf<string>()
    // Some error responses (a 500) carry no rate-limit headers.
    expectTypeOf<ErrorMeta<'listPets'>['rateLimit']>().toEqualTypeOf<RateLimitInfo | undefined>()
  })

  it('has retryAfterMs where errors declare Retry-After, undefined on success', () => {
    expectTypeOf<ErrorMeta<'createPet'>['retryAfterMs']>().toEqualTypeOf<number | undefined>()
    expectTypeOf<SuccessMeta<'createPet'>['retryAfterMs']>().toEqualTypeOf<undefined>()
  })

  it('follows the generated facts: a header declared on an operation adds its field', () => {
    type Declared = OperationFacts['listPets']['successHeaders'][200]
    expectTypeOf<Declared['Link']['rel']>().toEqualTypeOf<'next'>()
    // The preflight's 204 declares no rate-limit headers; its errors do.
    type Preflight = 'getOpenApiDocumentOptions'
    expectTypeOf<OperationMeta<Preflight>>().toHaveProperty('rateLimit')
    expectTypeOf<SuccessMeta<Preflight>['rateLimit']>().toEqualTypeOf<undefined>()
  })

  it('gives every other declared header a camelCase field of its own, typed by its schema', async () => {
    const created = await client.POST('/pets', { body: { name: 'Rex', categoryId: 1 } })
    if (!created.error) {
      expectTypeOf(created.meta.etag).toEqualTypeOf<string>()
      expectTypeOf(created.meta.location).toEqualTypeOf<string>()
      // An enum of one value, and only on a replay.
      expectTypeOf(created.meta.idempotentReplayed).toEqualTypeOf<'true' | undefined>()
      expectTypeOf(created.meta.xContentTypeOptions).toEqualTypeOf<'nosniff'>()
    } else {
      // Only a 401 declares WWW-Authenticate; no error declares an ETag.
      expectTypeOf(created.meta.wwwAuthenticate).toEqualTypeOf<string | undefined>()
      expectTypeOf(created.meta.etag).toEqualTypeOf<undefined>()
    }
    // An integer schema is read as a number.
    type Preflight = SuccessMeta<'getOpenApiDocumentOptions'>
    expectTypeOf<Preflight['accessControlMaxAge']>().toEqualTypeOf<number | undefined>()
    expectTypeOf<Preflight['allow']>().toEqualTypeOf<string>()
    // Parsed headers fill their parsed field only.
    expectTypeOf<OperationMeta<'listPets'>>().not.toHaveProperty('xRequestId')
    expectTypeOf<OperationMeta<'listPets'>>().not.toHaveProperty('xRateLimitLimit')
    expectTypeOf<OperationMeta<'listPets'>>().not.toHaveProperty('link')
  })

  it('keeps a Link without rel="next" as its text: getPet’s deprecation links', () => {
    expectTypeOf<SuccessMeta<'getPet'>['link']>().toEqualTypeOf<string>()
    expectTypeOf<OperationMeta<'getPet'>>().not.toHaveProperty('next')
  })

  it('types the new operations’ ETag, for If-Match', async () => {
    const order = await client.POST('/store/orders', { body: { petId: 1 } })
    if (order.data) expectTypeOf(order.meta.etag).toEqualTypeOf<string>()
    const updated = await client.PATCH('/store/orders/{orderId}', {
      params: { path: { orderId: 1 }, header: { 'If-Match': order.meta.etag } },
      body: { status: 'approved' },
    })
    if (updated.data) expectTypeOf(updated.meta.etag).toEqualTypeOf<string>()
    const deleted = await client.DELETE('/pets/{petId}', { params: { path: { petId: 1 } } })
    expectTypeOf(deleted.meta).not.toHaveProperty('etag')
  })

  it('keeps openapi-fetch’s data and error, and the client usable where a Client is', async () => {
    const list = await client.GET('/pets', { params: { query: { limit: 1 } }, timeoutMs: 10 })
    if (list.data) expectTypeOf(list.meta).toEqualTypeOf<SuccessMeta<'listPets'>>()
    const viaRequest = await client.request('get', '/pets/{petId}', {
      params: { path: { petId: 1 } },
    })
    expectTypeOf(viaRequest.meta).toHaveProperty('deprecation')
  })
})
