/**
 * The adoption flow through the typed client against the real server: orders placed, moved and
 * listed across pages, pets changed and removed under `If-Match`, and the refusals (412, 409)
 * returned at once, never retried.
 */
import type { Order } from '@petstore/types'
import { describe, expect, it } from 'vitest'
import {
  createPetstoreClient,
  PetstoreError,
  paginate,
  paginatePages,
  unwrap,
} from '../src/index.js'
import { newPet, realPetstore, recordingClock } from './helpers.js'

const petstore = realPetstore()

/** A client on a key of its own (orders belong to a key), recording the attempts it sends. */
async function adopter() {
  const attempts: string[] = []
  const client = createPetstoreClient({
    baseUrl: `${petstore.url}/v1`,
    apiKey: await petstore.issueKey(),
    clock: recordingClock(),
    onDeprecation: () => {},
    fetch: (request) => {
      attempts.push(`${request.method} ${new URL(request.url).pathname}`)
      return fetch(request)
    },
  })
  return { client, attempts }
}

describe('adopting a pet through the client', () => {
  it('places, approves and delivers an order; the pet follows', async () => {
    const { client } = await adopter()
    const pet = unwrap(await client.POST('/pets', { body: newPet({ name: 'Biscuit' }) }))
    const placed = await client.POST('/store/orders', { body: { petId: pet.id } })
    const order = unwrap(placed)
    expect(order).toMatchObject({ petId: pet.id, status: 'placed' })
    expect(placed.meta.location).toBe(`/v1/store/orders/${order.id}`)

    const approved = await client.PATCH('/store/orders/{orderId}', {
      params: { path: { orderId: order.id }, header: { 'If-Match': placed.meta.etag } },
      body: { status: 'approved' },
    })
    expect(unwrap(approved).status).toBe('approved')
    const delivered = await client.PATCH('/store/orders/{orderId}', {
      params: { path: { orderId: order.id }, header: { 'If-Match': approved.meta.etag } },
      body: { status: 'delivered' },
    })
    expect(unwrap(delivered).status).toBe('delivered')

    const fetched = await client.GET('/store/orders/{orderId}', {
      params: { path: { orderId: order.id } },
    })
    expect(fetched.data).toEqual(delivered.data)
    expect(fetched.meta.etag).toBe(delivered.meta.etag)
    const sold = await client.GET('/pets', { params: { query: { status: 'sold', limit: 100 } } })
    expect(sold.data?.map((each) => each.id)).toContain(pet.id)
  })

  it('walks every order of the key across pages with paginate(client, "listOrders")', async () => {
    const { client } = await adopter()
    const total = 23
    const placed: Order[] = []
    for (let index = 0; index < total; index += 1) {
      const pet = unwrap(await client.POST('/pets', { body: newPet({ name: `Order ${index}` }) }))
      placed.push(unwrap(await client.POST('/store/orders', { body: { petId: pet.id } })))
    }
    const first = placed[0]
    if (!first) throw new Error('no order placed')
    unwrap(
      await client.PATCH('/store/orders/{orderId}', {
        params: { path: { orderId: first.id } },
        body: { status: 'cancelled' },
      }),
    )
    const ids = placed.map((order) => order.id)

    const walked: Order[] = []
    for await (const order of paginate(client, 'listOrders', { limit: 5 })) walked.push(order)
    // Every order of the key once, in id order, the cancelled one included.
    expect(walked.map((order) => order.id)).toEqual(ids)
    expect(walked[0]?.status).toBe('cancelled')

    const pages = []
    for await (const page of paginatePages(client, 'listOrders', { limit: 5 })) pages.push(page)
    expect(pages.map((page) => page.items.length)).toEqual([5, 5, 5, 5, 3])
    expect(pages.at(-1)?.next).toBeUndefined()

    // Filters stay on every page.
    const placedOnly: Order[] = []
    for await (const order of paginate(client, 'listOrders', { status: 'placed', limit: 4 }))
      placedOnly.push(order)
    expect(placedOnly.map((order) => order.id)).toEqual(ids.slice(1))
    const second = placed[1]
    const byPet: Order[] = []
    for await (const order of paginate(client, 'listOrders', { petId: second?.petId ?? 0 }))
      byPet.push(order)
    expect(byPet).toEqual([second])
  })

  it('refuses a stale If-Match with 412 precondition_failed, changing nothing, tried once', async () => {
    const { client, attempts } = await adopter()
    const created = await client.POST('/pets', { body: newPet({ name: 'Pepper' }) })
    const pet = unwrap(created)
    const renamed = await client.PATCH('/pets/{petId}', {
      params: { path: { petId: pet.id }, header: { 'If-Match': created.meta.etag } },
      body: { name: 'Salt' },
    })
    expect(unwrap(renamed).name).toBe('Salt')
    expect(renamed.meta.etag).not.toBe(created.meta.etag)

    attempts.length = 0
    const stale = await client.PATCH('/pets/{petId}', {
      params: { path: { petId: pet.id }, header: { 'If-Match': created.meta.etag } },
      body: { name: 'Vinegar' },
    })
    expect(stale.response.status).toBe(412)
    expect(stale.error).toMatchObject({ code: 'precondition_failed', status: 412 })
    let thrown: unknown
    try {
      unwrap(stale)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(PetstoreError)
    expect(thrown).toMatchObject({
      code: 'precondition_failed',
      status: 412,
      message: stale.error?.message,
      requestId: stale.meta.requestId,
    })
    expect(stale.error?.message).toMatch(/If-Match/)
    const staleDelete = await client.DELETE('/pets/{petId}', {
      params: { path: { petId: pet.id }, header: { 'If-Match': created.meta.etag } },
    })
    expect(staleDelete.error?.code).toBe('precondition_failed')
    expect(attempts).toEqual([`PATCH /v1/pets/${pet.id}`, `DELETE /v1/pets/${pet.id}`])

    // Nothing changed; the current tag still works.
    const listed = await client.GET('/pets', { params: { query: { limit: 100 } } })
    expect(listed.data?.find((each) => each.id === pet.id)?.name).toBe('Salt')
    const removed = await client.DELETE('/pets/{petId}', {
      params: { path: { petId: pet.id }, header: { 'If-Match': renamed.meta.etag } },
    })
    expect(removed.response.status).toBe(204)
  })

  it('returns each 409 at once, never retried: pet_not_available, invalid_transition, pet_has_open_order', async () => {
    const { client, attempts } = await adopter()
    const pet = unwrap(await client.POST('/pets', { body: newPet({ name: 'Mochi' }) }))
    const order = unwrap(await client.POST('/store/orders', { body: { petId: pet.id } }))
    attempts.length = 0

    // placeOrder declares Idempotency-Key, so the client may retry it: but not this 409.
    const again = await client.POST('/store/orders', { body: { petId: pet.id } })
    expect(again.error?.code).toBe('pet_not_available')
    const skipped = await client.PATCH('/store/orders/{orderId}', {
      params: { path: { orderId: order.id } },
      body: { status: 'delivered' },
    })
    expect(skipped.error?.code).toBe('invalid_transition')
    expect(skipped.error?.message).toMatch(/placed/)
    const held = await client.DELETE('/pets/{petId}', { params: { path: { petId: pet.id } } })
    expect(held.error?.code).toBe('pet_has_open_order')
    // A pet's status moves only through orders.
    const statusPatch = await client.PATCH('/pets/{petId}', {
      params: { path: { petId: pet.id } },
      body: { status: 'sold' },
    })
    expect(statusPatch.error?.code).toBe('invalid_transition')
    expect(attempts).toEqual([
      'POST /v1/store/orders',
      `PATCH /v1/store/orders/${order.id}`,
      `DELETE /v1/pets/${pet.id}`,
      `PATCH /v1/pets/${pet.id}`,
    ])
    expect([again, skipped, held, statusPatch].map((result) => result.response.status)).toEqual([
      409, 409, 409, 409,
    ])
  })
})
