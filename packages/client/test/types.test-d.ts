import type { ApiError, ErrorCode, Pet } from '@petstore/types'
import { describe, expectTypeOf, it } from 'vitest'
import {
  createPetstoreClient,
  type PetstoreErrorCode,
  paginate,
  paginatePages,
  type RateLimitInfo,
  unwrap,
} from '../src/index.js'

const client = createPetstoreClient({ baseUrl: 'http://127.0.0.1:3000/v1', apiKey: 'key' })

describe('createPetstoreClient types', () => {
  it('types responses from the spec', async () => {
    const list = await client.GET('/pets', { params: { query: { limit: 10, status: 'sold' } } })
    expectTypeOf(list.data).toEqualTypeOf<Pet[] | undefined>()
    expectTypeOf(list.error).toEqualTypeOf<ApiError | undefined>()
    expectTypeOf(list.response).toEqualTypeOf<Response>()

    const created = await client.POST('/pets', { body: { name: 'Rex', categoryId: 1 } })
    expectTypeOf(created.data).toEqualTypeOf<Pet | undefined>()
    if (created.error) expectTypeOf(created.error.code).toEqualTypeOf<ErrorCode>()

    const one = await client.GET('/pets/{petId}', { params: { path: { petId: 1 } } })
    expectTypeOf(one.data).toEqualTypeOf<Pet | undefined>()
  })

  it('rejects wrong bodies and parameters', () => {
    // @ts-expect-error categoryId is required
    void client.POST('/pets', { body: { name: 'Rex' } })
    // @ts-expect-error categoryId is a number
    void client.POST('/pets', { body: { name: 'Rex', categoryId: '1' } })
    // @ts-expect-error status must be one of the enum
    void client.POST('/pets', { body: { name: 'Rex', categoryId: 1, status: 'adopted' } })
    // @ts-expect-error a body is required
    void client.POST('/pets', {})
    // @ts-expect-error petId is required
    void client.GET('/pets/{petId}', { params: { path: {} } })
    // @ts-expect-error no such status
    void client.GET('/pets', { params: { query: { status: 'lost' } } })
    // @ts-expect-error no such path
    void client.GET('/owners')
    // @ts-expect-error no such method on the path
    void client.DELETE('/pets')
  })

  it('types the Idempotency-Key header of createPet', () => {
    void client.POST('/pets', {
      params: { header: { 'Idempotency-Key': 'order-42' } },
      body: { name: 'Rex', categoryId: 1 },
    })
  })

  it('unwraps to the success type', async () => {
    expectTypeOf(unwrap(await client.GET('/pets'))).toEqualTypeOf<Pet[]>()
    const pet = unwrap(await client.POST('/pets', { body: { name: 'Rex', categoryId: 1 } }))
    expectTypeOf(pet).toEqualTypeOf<Pet>()
  })

  it('types the helpers', () => {
    expectTypeOf(paginate(client, 'listPets', { status: 'available' })).toEqualTypeOf<
      AsyncGenerator<Pet, void, undefined>
    >()
    expectTypeOf(paginatePages(client, 'listPets')).toExtend<
      AsyncIterable<{ items: Pet[]; response: Response }>
    >()
    // @ts-expect-error the cursor comes from the next link, never from the caller
    paginate(client, 'listPets', { cursor: 'abc' })
    // @ts-expect-error a filter is typed by the operation's query
    paginate(client, 'listPets', { status: 'lost' })
    // @ts-expect-error getPet's 200 declares no next link: it is no list
    paginate(client, 'getPet')
    // @ts-expect-error createPet is no GET
    paginate(client, 'createPet')
    expectTypeOf(client.rateLimit()).toEqualTypeOf<RateLimitInfo | undefined>()
    expectTypeOf<PetstoreErrorCode>().toEqualTypeOf<ErrorCode | 'unexpected_response'>()
  })
})
