/**
 * The adoption flow over HTTP on one SQLite process: orders move through the state machine of
 * routes/orders/transitions.ts and their pets follow; orders belong to the key that placed them;
 * pet writes keep a pet's status to its orders; every pet and order answer carries the `ETag` of
 * its state and `If-Match` makes a write conditional; of concurrent orders for one pet exactly one
 * is placed. Statuses come from the spec's enums and the transitions table, every pair of them.
 */
import type { Order, OrderStatus, Pet } from '@petstore/types'
import { orderStatusValues } from '@petstore/types'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { canMove, orderTransitions, petStatusOnOrder } from '../../src/routes/orders/transitions.js'
import {
  call,
  expectErrorBody,
  expectSpecResponse,
  newPet,
  type Reply,
  startWithKey,
  type TestServer,
} from '../helpers.js'

let server: TestServer
let auth: { authorization: string }
let other: { authorization: string }
beforeAll(async () => {
  ;({ server, auth } = await startWithKey())
  other = {
    authorization: `Bearer ${await server.issueKey({ plan: 'enterprise', perMinute: 1e6, perDay: 1e6 })}`,
  }
})
afterAll(() => server.close())

const json = 'application/json'
const mergePatch = 'application/merge-patch+json'

function send(
  method: string,
  path: string,
  options: { body?: unknown; type?: string; headers?: Record<string, string>; as?: object } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...(options.as ?? auth), ...options.headers }
  if (options.body !== undefined) headers['content-type'] = options.type ?? json
  return call(`${server.api}${path}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  })
}

async function createPet(): Promise<Pet> {
  const reply = await send('POST', '/pets', { body: newPet() })
  expectSpecResponse(reply, 'createPet')
  expect(reply.status).toBe(201)
  return reply.body as Pet
}

async function placeOrder(petId: number, as: object = auth): Promise<Reply> {
  const reply = await send('POST', '/store/orders', { body: { petId }, as })
  expectSpecResponse(reply, 'placeOrder')
  return reply
}

async function moveOrder(id: number, status: OrderStatus, headers = {}): Promise<Reply> {
  const reply = await send('PATCH', `/store/orders/${id}`, {
    body: { status },
    type: mergePatch,
    headers,
  })
  expectSpecResponse(reply, 'updateOrder')
  return reply
}

const petStatus = async (id: number) =>
  ((await send('GET', `/pets/${id}`)).body as Pet | undefined)?.status

/** An order in `status`, reached through the transitions table from `placed`. */
async function orderIn(status: OrderStatus): Promise<{ order: Order; pet: Pet }> {
  const pet = await createPet()
  const placed = await placeOrder(pet.id)
  expect(placed.status, placed.text).toBe(201)
  let order = placed.body as Order
  const path = pathTo(status)
  expect(path, `no way from placed to ${status}`).toBeDefined()
  for (const step of path ?? []) {
    const moved = await moveOrder(order.id, step)
    expect(moved.status, moved.text).toBe(200)
    order = moved.body as Order
  }
  return { order, pet }
}

/** The shortest list of moves from `placed` to `status` in the transitions table. */
function pathTo(status: OrderStatus): OrderStatus[] | undefined {
  const queue: OrderStatus[][] = [[]]
  while (queue.length > 0) {
    const path = queue.shift() as OrderStatus[]
    const at = path.at(-1) ?? 'placed'
    if (at === status) return path
    for (const next of orderTransitions[at]) if (!path.includes(next)) queue.push([...path, next])
  }
  return undefined
}

describe('the state machine', () => {
  const pairs = orderStatusValues.flatMap((from) =>
    orderStatusValues.map((to) => [from, to] as const),
  )

  it('has every status reachable from placed', () => {
    for (const status of orderStatusValues) expect(pathTo(status), status).toBeDefined()
  })

  it.each(pairs)(
    'moves an order from %s to %s exactly when the table allows it',
    async (from, to) => {
      const { order, pet } = await orderIn(from)
      const before = await petStatus(pet.id)
      const reply = await moveOrder(order.id, to)
      if (canMove(from, to)) {
        expect(reply.status, reply.text).toBe(200)
        expect(reply.body).toMatchObject({ id: order.id, petId: pet.id, status: to })
        expect(Date.parse((reply.body as Order).updatedAt)).toBeGreaterThanOrEqual(
          Date.parse(order.updatedAt),
        )
        expect(await petStatus(pet.id)).toBe(petStatusOnOrder[to] ?? before)
      } else {
        expectErrorBody(reply, 'invalid_transition')
        expect(reply.status).toBe(409)
        expect((reply.body as { message: string }).message).toContain(`from ${from} to ${to}`)
        expect(((await send('GET', `/store/orders/${order.id}`)).body as Order).status).toBe(from)
        expect(await petStatus(pet.id)).toBe(before)
      }
    },
  )
})

describe('placing an order', () => {
  it('takes an available pet (pending), refuses a taken or unknown one, with Location and ETag', async () => {
    const pet = await createPet()
    const placed = await placeOrder(pet.id)
    expect(placed.status).toBe(201)
    const order = placed.body as Order
    expect(placed.headers.get('location')).toBe(`/v1/store/orders/${order.id}`)
    expect(order).toMatchObject({ petId: pet.id, status: 'placed' })
    expect(order.placedAt).toBe(order.updatedAt)
    expect(await petStatus(pet.id)).toBe('pending')
    const again = await placeOrder(pet.id)
    expectErrorBody(again, 'pet_not_available')
    expect((again.body as { message: string }).message).toBe(
      `pet ${pet.id} is not available (it is pending)`,
    )
    const unknown = await placeOrder(9_007_199_254_740_991)
    expectErrorBody(unknown, 'not_found')
    const got = await send('GET', `/store/orders/${order.id}`)
    expect(got.headers.get('etag')).toBe(placed.headers.get('etag'))
  })

  it('refuses a pet created pending or sold, and one whose order was delivered', async () => {
    for (const status of ['pending', 'sold'] as const) {
      const pet = (await send('POST', '/pets', { body: newPet({ status }) })).body as Pet
      expectErrorBody(await placeOrder(pet.id), 'pet_not_available')
    }
    const { pet } = await orderIn('delivered')
    expect(await petStatus(pet.id)).toBe('sold')
    expectErrorBody(await placeOrder(pet.id), 'pet_not_available')
  })

  it('places again once the order is cancelled', async () => {
    const { pet } = await orderIn('cancelled')
    expect(await petStatus(pet.id)).toBe('available')
    expect((await placeOrder(pet.id)).status).toBe(201)
  })

  it('replays a retry with the same Idempotency-Key, and places one order', async () => {
    const pet = await createPet()
    const headers = { 'idempotency-key': `adopt-${pet.id}` }
    const first = await send('POST', '/store/orders', { body: { petId: pet.id }, headers })
    const retry = await send('POST', '/store/orders', { body: { petId: pet.id }, headers })
    expectSpecResponse(retry, 'placeOrder')
    expect([first.status, retry.status]).toEqual([201, 201])
    expect(retry.body).toEqual(first.body)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    expect(retry.headers.get('etag')).toBe(first.headers.get('etag'))
    const listed = await send('GET', `/store/orders?petId=${pet.id}`)
    expect((listed.body as Order[]).map((order) => order.id)).toEqual([(first.body as Order).id])
  })

  it('gives exactly one of twenty concurrent orders for one pet; the others are 409', async () => {
    const pet = await createPet()
    const replies = await Promise.all(Array.from({ length: 20 }, () => placeOrder(pet.id)))
    const statuses = replies.map((reply) => reply.status).sort()
    expect(statuses).toEqual([201, ...Array.from({ length: 19 }, () => 409)])
    for (const reply of replies.filter((r) => r.status === 409)) {
      expectErrorBody(reply, 'pet_not_available')
    }
  })
})

describe('orders belong to the key that placed them', () => {
  it("hides another key's order: 404 to read or move, never listed", async () => {
    const { order } = await orderIn('placed')
    const read = await send('GET', `/store/orders/${order.id}`, { as: other })
    expectSpecResponse(read, 'getOrder')
    expectErrorBody(read, 'not_found')
    const moved = await send('PATCH', `/store/orders/${order.id}`, {
      as: other,
      body: { status: 'cancelled' },
      type: mergePatch,
    })
    expectErrorBody(moved, 'not_found')
    const listed = await send('GET', '/store/orders?limit=100', { as: other })
    expectSpecResponse(listed, 'listOrders')
    expect((listed.body as Order[]).map((o) => o.id)).not.toContain(order.id)
    const mine = await send('GET', `/store/orders?petId=${order.petId}`)
    expect((mine.body as Order[]).map((o) => o.id)).toEqual([order.id])
  })
})

describe('pet writes', () => {
  it('patches name and category as a merge patch, with a new ETag, and keeps the status to orders', async () => {
    const pet = await createPet()
    const read = await send('GET', `/pets/${pet.id}`)
    const tag = read.headers.get('etag') as string
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{1,64}"$/)
    const renamed = await send('PATCH', `/pets/${pet.id}`, {
      body: { name: 'Rex the Second' },
      type: mergePatch,
      headers: { 'if-match': tag },
    })
    expectSpecResponse(renamed, 'updatePet')
    expect(renamed.body).toEqual({ ...pet, name: 'Rex the Second' })
    expect(renamed.headers.get('etag')).not.toBe(tag)
    const stale = await send('PATCH', `/pets/${pet.id}`, {
      body: { categoryId: 2 },
      type: mergePatch,
      headers: { 'if-match': tag },
    })
    expectSpecResponse(stale, 'updatePet')
    expectErrorBody(stale, 'precondition_failed')
    expect(stale.status).toBe(412)
    const status = await send('PATCH', `/pets/${pet.id}`, {
      body: { status: 'sold' },
      type: mergePatch,
    })
    expectErrorBody(status, 'invalid_transition')
    expect(status.status).toBe(409)
    for (const body of [{ name: null }, { id: 5 }, { nickname: 'x' }]) {
      const refused = await send('PATCH', `/pets/${pet.id}`, { body, type: mergePatch })
      expectErrorBody(refused, 'invalid_request')
    }
    const wrongType = await send('PATCH', `/pets/${pet.id}`, { body: { name: 'x' }, type: json })
    expectErrorBody(wrongType, 'unsupported_media_type')
    expect((await send('GET', `/pets/${pet.id}`)).body).toEqual({ ...pet, name: 'Rex the Second' })
  })

  it('refuses a merge patch on a create, which declares JSON only', async () => {
    const reply = await send('POST', '/pets', { body: newPet(), type: mergePatch })
    expectSpecResponse(reply, 'createPet')
    expectErrorBody(reply, 'unsupported_media_type')
  })

  it('deletes a pet for good, but not while an order for it is open', async () => {
    const { order, pet } = await orderIn('approved')
    const refused = await send('DELETE', `/pets/${pet.id}`)
    expectSpecResponse(refused, 'deletePet')
    expectErrorBody(refused, 'pet_has_open_order')
    expect(await petStatus(pet.id)).toBe('pending')
    expect((await moveOrder(order.id, 'cancelled')).status).toBe(200)
    const stale = await send('DELETE', `/pets/${pet.id}`, { headers: { 'if-match': '"stale"' } })
    expectErrorBody(stale, 'precondition_failed')
    const tag = (await send('GET', `/pets/${pet.id}`)).headers.get('etag') as string
    const deleted = await send('DELETE', `/pets/${pet.id}`, { headers: { 'if-match': tag } })
    expectSpecResponse(deleted, 'deletePet')
    expect([deleted.status, deleted.text]).toEqual([204, ''])
    expectErrorBody(await send('GET', `/pets/${pet.id}`), 'not_found')
    expectErrorBody(await send('DELETE', `/pets/${pet.id}`), 'not_found')
    const next = await createPet()
    expect(next.id).toBeGreaterThan(pet.id)
  })

  it('moves an order only if nobody moved it since it was read (If-Match, weak tags never)', async () => {
    const { order } = await orderIn('placed')
    const tag = (await send('GET', `/store/orders/${order.id}`)).headers.get('etag') as string
    expectErrorBody(
      await moveOrder(order.id, 'approved', { 'if-match': `W/${tag}` }),
      'precondition_failed',
    )
    const moved = await moveOrder(order.id, 'approved', { 'if-match': `"other", ${tag}` })
    expect(moved.status).toBe(200)
    expectErrorBody(
      await moveOrder(order.id, 'delivered', { 'if-match': tag }),
      'precondition_failed',
    )
    expect((await moveOrder(order.id, 'delivered', { 'if-match': '*' })).status).toBe(200)
  })
})
