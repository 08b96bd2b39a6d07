/**
 * Two instances on one PostgreSQL database: after any write on either (a pet updated or removed,
 * an order placed or moved, an operator's hand-written SQL), no read on the other serves the
 * state before it, however often it read before: pets, their pages and orders.
 */
import type { Order, Pet } from '@petstore/types'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { connectionConfig } from '../../src/store/postgres/connection.js'
import type { PostgresStoreOptions } from '../../src/store/postgres/options.js'
import { openMigratedPool, postgresStore } from '../../src/store/postgres/store.js'
import { changedTables, listenForTableChanges } from '../../src/store/postgres/table-changes.js'
import { resources } from '../../src/store/resources.js'
import type { Store } from '../../src/store/store.js'
import { postgresUrl, schemaFactory, serviceAvailable } from '../services.js'

const available = await serviceAvailable('PostgreSQL', 'test/store/cache-postgres.test.ts')

/** What `store` serves of pet 1 and order 1, each read twice (a cache would keep the second). */
async function served(store: Store, owner: string) {
  const read = async () => {
    const page = JSON.parse((await store.pets.list({ limit: 2 })).json) as Pet[]
    const orders = JSON.parse((await store.orders.list({ limit: 2, owner })).json) as Order[]
    return {
      pet: await store.pets.get(1),
      first: page[0],
      order: (await store.orders.get(1, owner))?.status,
      listed: orders[0]?.status,
    }
  }
  await read()
  return read()
}

describe.runIf(available)('two instances on one PostgreSQL database', () => {
  const schemas = schemaFactory()
  const admin = new pg.Pool({ connectionString: postgresUrl, max: 2 })
  const opened: Store[] = []
  afterAll(async () => {
    await Promise.all(opened.map((store) => store.close()))
    await schemas.dropAll()
    await admin.end()
  })

  async function openInstance(options: PostgresStoreOptions): Promise<Store> {
    const pool = await openMigratedPool(options)
    const store = postgresStore(
      pool,
      listenForTableChanges(connectionConfig(options), changedTables),
    )
    opened.push(store)
    return store
  }

  it('serves on each what the other just wrote, whatever the write', async () => {
    const schema = await schemas.create()
    const a = await openInstance({ url: postgresUrl, size: 2, schema })
    const b = await openInstance({ url: postgresUrl, size: 2, schema })
    const owner = 'key_a'
    for (const name of ['Rex', 'Bo']) {
      await a.pets.create({ name, categoryId: 1, status: 'available' })
    }
    const at = '2026-11-29T10:15:00.000Z'
    await b.orders.create({ petId: 2, status: 'placed', placedAt: at, updatedAt: at }, { owner })
    for (const store of [a, b]) {
      expect(await served(store, owner)).toMatchObject({
        pet: { name: 'Rex' },
        first: { name: 'Rex' },
        order: 'placed',
        listed: 'placed',
      })
    }
    const writes: [string, Store, () => Promise<unknown>, object][] = [
      [
        'A renames pet 1',
        a,
        () => a.pets.update(1, ({ id: _, ...pet }) => ({ ...pet, name: 'Max' })),
        { pet: { name: 'Max' }, first: { name: 'Max' } },
      ],
      [
        'B moves order 1 on',
        b,
        () =>
          b.orders.update(1, ({ id: _, ...order }) => ({ ...order, status: 'approved' }), owner),
        { order: 'approved', listed: 'approved' },
      ],
      [
        'an operator renames pet 1 in SQL',
        a,
        () =>
          admin.query(
            `UPDATE ${schema}.pets SET doc = jsonb_set(doc::jsonb, '{name}', '"Hand"')::json WHERE id = 1`,
          ),
        { pet: { name: 'Hand' }, first: { name: 'Hand' } },
      ],
      [
        'B removes pet 1',
        b,
        () => b.pets.remove(1),
        { pet: undefined, first: { id: 2, name: 'Bo' } },
      ],
    ]
    for (const [what, _writer, write, expected] of writes) {
      await write()
      for (const [name, store] of [
        ['A', a],
        ['B', b],
      ] as const) {
        expect(await served(store, owner), `${name} after ${what}`).toMatchObject(expected)
      }
    }
    expect(resources.orders.owned).toBe(true)
    expect(await b.orders.get(1, 'key_b')).toBeUndefined()
  })
})
