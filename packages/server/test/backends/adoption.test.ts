/**
 * The adoption flow on two server processes over one PostgreSQL (a fresh schema) and one Redis:
 * of twenty concurrent orders for one pet sent to both, exactly one is placed; and after every
 * write on either instance (an order placed or moved, a pet patched or deleted), neither serves
 * the state before it, read by id or walked by page, however often it was read before.
 */
import type { Order, Pet } from '@petstore/types'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueApiKey } from '../../src/auth/api-key.js'
import { openPostgresStore } from '../../src/store/postgres/index.js'
import type { Store } from '../../src/store/store.js'
import { type Child, requireBuiltServer, startChild } from '../child-server.js'
import { call, expectErrorBody, newPet, type Reply } from '../helpers.js'
import {
  inSchema,
  postgresUrl,
  redisServerInstalled,
  schemaFactory,
  serviceAvailable,
} from '../services.js'
import { type PrivateRedis, startPrivateRedis } from './processes.js'

const suite = 'test/backends/adoption.test.ts'
const available = (await serviceAvailable('PostgreSQL', suite)) && redisServerInstalled(suite)

describe.runIf(available)('adoption on two instances over PostgreSQL and Redis', () => {
  const schemas = schemaFactory()
  let redis: PrivateRedis
  let store: Store
  let a: Child
  let b: Child
  let auth: { authorization: string }

  beforeAll(async () => {
    requireBuiltServer()
    const schema = await schemas.create()
    const url = inSchema(postgresUrl, schema)
    store = await openPostgresStore({ url, size: 2, schema })
    redis = await startPrivateRedis()
    const env = { DATABASE_URL: url, REDIS_URL: redis.url }
    ;[a, b] = await Promise.all([startChild(env), startChild(env)])
    const { rawKey } = await issueApiKey(store.keys, {
      plan: 'enterprise',
      perMinute: 100_000,
      perDay: 1_000_000,
    })
    auth = { authorization: `Bearer ${rawKey}` }
  })

  afterAll(async () => {
    for (const child of [a, b]) child?.process.kill('SIGTERM')
    await Promise.all([a?.exited, b?.exited])
    await store?.close()
    await redis?.stop()
    await schemas.dropAll()
  })

  const send = (
    on: Child,
    method: string,
    path: string,
    body?: unknown,
    type = 'application/json',
  ) =>
    call(`${on.url}/v1${path}`, {
      method,
      headers: body === undefined ? auth : { ...auth, 'content-type': type },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })

  /** Every pet `on` lists, walked page by page (each page read twice, as a cache would keep it). */
  async function walk(on: Child, query = ''): Promise<Pet[]> {
    const pets: Pet[] = []
    for (let next: string | undefined = `${on.url}/v1/pets?limit=2${query}`; next; ) {
      await call(next, { headers: auth })
      const page = await call(next, { headers: auth })
      expect(page.status).toBe(200)
      pets.push(...(page.body as Pet[]))
      const link = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1]
      next = link === undefined ? undefined : new URL(link, on.url).toString()
    }
    return pets
  }

  /** What each instance serves of `pet`: by id (read twice) and in the walk of its listing. */
  async function seen(pet: number) {
    const views: { read: Reply; listed: Pet | undefined }[] = []
    for (const on of [a, b]) {
      await send(on, 'GET', `/pets/${pet}`)
      const read = await send(on, 'GET', `/pets/${pet}`)
      views.push({ read, listed: (await walk(on)).find((item) => item.id === pet) })
    }
    return views
  }

  async function expectBoth(pet: number, expected: Partial<Pet> | undefined, what: string) {
    for (const [index, view] of (await seen(pet)).entries()) {
      const where = `${index === 0 ? 'A' : 'B'} after ${what}`
      if (expected === undefined) {
        expect(view.read.status, where).toBe(404)
        expect(view.listed, where).toBeUndefined()
      } else {
        expect(view.read.body, where).toMatchObject(expected)
        expect(view.listed, where).toMatchObject(expected)
      }
    }
  }

  it('places exactly one of twenty concurrent orders for one pet, sent to both instances', async () => {
    const pet = (await send(a, 'POST', '/pets', newPet())).body as Pet
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        send(i % 2 === 0 ? a : b, 'POST', '/store/orders', { petId: pet.id }),
      ),
    )
    const statuses = replies.map((reply) => reply.status).sort()
    expect(statuses).toEqual([201, ...Array.from({ length: 19 }, () => 409)])
    for (const reply of replies.filter((r) => r.status === 409)) {
      expectErrorBody(reply, 'pet_not_available')
    }
    await expectBoth(pet.id, { status: 'pending' }, 'the orders')
  })

  it('serves on each instance what the other just wrote, for every write', async () => {
    const pets: Pet[] = []
    for (const name of ['Rex', 'Bo', 'Ty']) {
      pets.push((await send(a, 'POST', '/pets', newPet({ name }))).body as Pet)
    }
    const [rex, bo] = pets as [Pet, Pet]
    await expectBoth(rex.id, { name: 'Rex', status: 'available' }, 'the creates')
    const placed = await send(b, 'POST', '/store/orders', { petId: rex.id })
    expect(placed.status).toBe(201)
    const order = placed.body as Order
    await expectBoth(rex.id, { status: 'pending' }, 'B placed an order')
    const approved = await send(
      a,
      'PATCH',
      `/store/orders/${order.id}`,
      { status: 'approved' },
      'application/merge-patch+json',
    )
    expect(approved.status).toBe(200)
    for (const on of [a, b]) {
      expect((await send(on, 'GET', `/store/orders/${order.id}`)).body).toMatchObject({
        status: 'approved',
      })
    }
    const delivered = await send(
      b,
      'PATCH',
      `/store/orders/${order.id}`,
      { status: 'delivered' },
      'application/merge-patch+json',
    )
    expect(delivered.status).toBe(200)
    await expectBoth(rex.id, { status: 'sold' }, 'B delivered the order')
    const renamed = await send(
      a,
      'PATCH',
      `/pets/${bo.id}`,
      { name: 'Bo the Second' },
      'application/merge-patch+json',
    )
    expect(renamed.status).toBe(200)
    await expectBoth(bo.id, { name: 'Bo the Second' }, 'A renamed a pet')
    expect((await send(b, 'DELETE', `/pets/${bo.id}`)).status).toBe(204)
    await expectBoth(bo.id, undefined, 'B deleted a pet')
    for (const on of [a, b]) {
      const sold = await walk(on, '&status=sold')
      expect(sold.map((pet) => pet.id)).toContain(rex.id)
    }
  })
})
