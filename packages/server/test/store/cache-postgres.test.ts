import type { Pet } from '@petstore/types'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { cacheResource } from '../../src/store/cache.js'
import type { TableChanges } from '../../src/store/changes.js'
import { connectionConfig } from '../../src/store/postgres/connection.js'
import type { PostgresStoreOptions } from '../../src/store/postgres/options.js'
import { postgresResourceStore } from '../../src/store/postgres/resources.js'
import { openMigratedPool, postgresStore } from '../../src/store/postgres/store.js'
import { changedTables, listenForTableChanges } from '../../src/store/postgres/table-changes.js'
import { resources } from '../../src/store/resources.js'
import type { PetStore } from '../../src/store/store.js'
import { postgresUrl, schemaFactory, serviceAvailable, uniqueName } from '../services.js'

const available = await serviceAvailable('PostgreSQL', 'test/store/cache-postgres.test.ts')

/** A PetStore with the update method a team might add, over the same pool as the real one. */
type EditablePetStore = PetStore & { update(id: number, name: string): Promise<Pet | undefined> }

function editablePets(pool: pg.Pool): EditablePetStore {
  return {
    ...postgresResourceStore(pool, resources.pets),
    async update(id, name) {
      const { rows } = await pool.query<{ pet: Pet }>(
        `UPDATE pets SET doc = jsonb_set(doc::jsonb, '{name}', to_jsonb($1::text))::json
         WHERE id = $2 RETURNING json_build_object('id', id) :: jsonb || doc::jsonb AS pet`,
        [name, id],
      )
      return rows[0]?.pet
    },
  }
}

/** Resolves once `condition` holds, checked every millisecond; fails after 5 s. */
async function until(what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting until ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 1))
  }
}

/** The name of pet 1 as `pets` serves it alone and on the first page, which it caches. */
async function served(pets: PetStore): Promise<[string | undefined, string | undefined]> {
  const page = JSON.parse((await pets.list({ limit: 2 })).json) as Pet[]
  return [(await pets.get(1))?.name, page[0]?.name]
}

/** Fills the cache of `pets` with pet 1 and the first page (kept when asked for twice). */
async function warm(pets: PetStore): Promise<void> {
  await served(pets)
  await served(pets)
}

describe.runIf(available)('the pet cache of two instances on one PostgreSQL database', () => {
  const schemas = schemaFactory()
  const admin = new pg.Pool({ connectionString: postgresUrl, max: 2 })
  afterAll(async () => {
    await schemas.dropAll()
    await admin.end()
  })

  /** An instance assembled as openPostgresStore does, its pet changes in view, once it listens. */
  async function openInstance(options: PostgresStoreOptions) {
    const pool = await openMigratedPool(options)
    const listener = listenForTableChanges(connectionConfig(options), changedTables)
    const instance = {
      pool,
      store: postgresStore(pool, listener),
      changes: listener.tables.pets as TableChanges,
    }
    await until('the instance listens', () => instance.changes.listening)
    return instance
  }

  /**
   * Instances A and B on a fresh schema with three pets, B's cache warm. B's connections carry an
   * application name of their own, so that the test can find its listener.
   */
  async function twoInstances() {
    const schema = await schemas.create()
    const applicationName = uniqueName('b')
    const bUrl = new URL(postgresUrl)
    bUrl.searchParams.set('application_name', applicationName)
    const a = await openInstance({ url: postgresUrl, size: 2, schema })
    const b = await openInstance({ url: bUrl.toString(), size: 2, schema })
    for (const name of ['Rex', 'Bo', 'Ty']) {
      await a.store.pets.create({ name, categoryId: 1, status: 'available' })
    }
    await warm(b.store.pets)
    /** Renames pet 1 with triggers off, as a replica applies rows: no instance is told. */
    const renameUntold = (name: string) =>
      admin.query(
        `BEGIN; SET LOCAL session_replication_role = replica;
         UPDATE ${schema}.pets SET doc = jsonb_set(doc::jsonb, '{name}', '"${name}"')::json WHERE id = 1; COMMIT`,
      )
    const close = () => Promise.all([a.store.close(), b.store.close()])
    return { schema, applicationName, a, b, renameUntold, close }
  }

  it('serves on B the pet an operator changed by hand in SQL, once the UPDATE commits', async () => {
    const { schema, b, renameUntold, close } = await twoInstances()
    await renameUntold('Untold')
    expect(await served(b.store.pets)).toEqual(['Rex', 'Rex'])
    const generation = b.changes.generation
    await admin.query(
      `UPDATE ${schema}.pets SET doc = jsonb_set(doc::jsonb, '{name}', '"Max"')::json WHERE id = 1`,
    )
    await until('B hears of the change', () => b.changes.generation !== generation)
    expect(await served(b.store.pets)).toEqual(['Max', 'Max'])
    await close()
  })

  it('serves on A at once and on B the pet A changed through a write method added to PetStore', async () => {
    const { a, b, renameUntold, close } = await twoInstances()
    const aPets = cacheResource(editablePets(a.pool), a.changes)
    await warm(aPets)
    await renameUntold('Untold')
    expect(await served(aPets)).toEqual(['Rex', 'Rex'])
    expect(await served(b.store.pets)).toEqual(['Rex', 'Rex'])
    const generation = b.changes.generation
    expect(await aPets.update(1, 'Max')).toMatchObject({ id: 1, name: 'Max' })
    expect(await served(aPets)).toEqual(['Max', 'Max'])
    await until('B hears of the change', () => b.changes.generation !== generation)
    expect(await served(b.store.pets)).toEqual(['Max', 'Max'])
    await close()
  })

  it('serves nothing from the cache of B while its listener is down, and caches again once back', async () => {
    const { applicationName, b, renameUntold, close } = await twoInstances()
    const { rows } = await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE application_name = $1 AND query LIKE 'LISTEN %'`,
      [applicationName],
    )
    expect(rows).toHaveLength(1)
    await until("B's listener is down", () => !b.changes.listening)
    await renameUntold('Untold')
    expect(await served(b.store.pets)).toEqual(['Untold', 'Untold'])
    await renameUntold('Unseen')
    expect(await served(b.store.pets)).toEqual(['Unseen', 'Unseen'])
    expect(b.changes.listening).toBe(false)
    await until('B listens again', () => b.changes.listening)
    await warm(b.store.pets)
    await renameUntold('Later')
    expect(await served(b.store.pets)).toEqual(['Unseen', 'Unseen'])
    await close()
  })
})
