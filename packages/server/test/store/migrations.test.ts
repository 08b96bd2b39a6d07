/**
 * The migrations from 004 on are defined once (src/store/migrations.ts) and applied by both
 * stores: from a database made by the earlier releases with pets in it, each store comes up with
 * the same pets, the same pages to the byte and a sequence that still never reuses an id; and a
 * change of documents gives the same stored text on SQLite and PostgreSQL.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Pet } from '@petstore/types'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { createAjv } from '../../src/spec/ajv.js'
import { dereference, specDocument } from '../../src/spec/document.js'
import { documentCodec } from '../../src/store/documents.js'
import type { DocumentMigration } from '../../src/store/migrations.js'
import { openPool } from '../../src/store/postgres/connection.js'
import { openPostgresStore } from '../../src/store/postgres/index.js'
import { migratePostgres, postgresMigrations } from '../../src/store/postgres/migrations.js'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import { migrate, migrations as sqliteMigrations } from '../../src/store/sqlite/migrations/index.js'
import type { Store } from '../../src/store/store.js'
import { postgresUrl, schemaFactory, serviceAvailable } from '../services.js'

const validPet = createAjv().compile(
  dereference({ $ref: '#/components/schemas/Pet' }, specDocument) as object,
)

/** What the spec's Pet schema finds wrong with `pet`, as readable lines. */
function petSchemaErrors(pet: unknown): string[] {
  if (validPet(pet)) return []
  return (validPet.errors ?? []).map((error) => `${error.instancePath || 'pet'} ${error.message}`)
}

/** The migrations every release before stored documents had applied. */
const released = 3

/** Pets as the columns of those releases held them: a name with what JSON escapes, or may. */
const legacyPets: Pet[] = [
  { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
  {
    id: 2,
    name: 'Ünï "quoted" \\ backslash \u2028 </script> 😀',
    categoryId: Number.MAX_SAFE_INTEGER,
    status: 'sold',
  },
  { id: 3, name: 'Max', categoryId: 2, status: 'pending' },
]
/** Created and deleted before the upgrade: its id must never come back. */
const deletedId = 4

/** What a change of documents, defined once, does on both stores. */
const toTitle: DocumentMigration = {
  name: '999-test-title',
  documents: {
    table: 'pets',
    change: ({ name, ...rest }) => ({ title: name, ...rest }),
  },
}
/** Written back in Pet's property order, what the change adds (not in the schema) after. */
const retitled = legacyPets.map(
  ({ id, ...rest }) =>
    documentCodec<Pet>('Pet').encode(toTitle.documents.change(rest) as Omit<Pet, 'id'>).text,
)

interface Legacy {
  /** A database as the last release left it, with `legacyPets` and the deleted pet. */
  make(): Promise<void>
  open(): Promise<Store>
  /** Applies every migration and `toTitle`; resolves with the stored documents in id order. */
  retitle(): Promise<string[]>
}

function upgradeTests(name: string, legacy: () => Promise<Legacy>) {
  describe(`upgrading ${name} to stored documents`, () => {
    it('keeps every pet, its page bytes and the sequence', async () => {
      const database = await legacy()
      await database.make()
      const store = await database.open()
      try {
        // Every stored pet is a Pet of the spec as it is now: a schema change that needs the
        // documents changed fails here until its migration (src/store/migrations.ts) is written.
        const stored = JSON.parse((await store.pets.list({ limit: 100 })).json) as unknown[]
        for (const pet of stored) expect(petSchemaErrors(pet), JSON.stringify(pet)).toEqual([])
        for (const pet of legacyPets) expect(await store.pets.get(pet.id)).toEqual(pet)
        expect((await store.pets.list({ limit: 10 })).json).toBe(JSON.stringify(legacyPets))
        expect((await store.pets.list({ limit: 10, status: 'sold' })).json).toBe(
          JSON.stringify(legacyPets.filter((pet) => pet.status === 'sold')),
        )
        const next = await store.pets.create({ name: 'New', categoryId: 1, status: 'available' })
        expect(next.id).toBeGreaterThan(deletedId)
      } finally {
        await store.close()
      }
    })

    it('applies a change of documents as the other store does', async () => {
      const database = await legacy()
      await database.make()
      expect(await database.retitle()).toEqual(retitled)
    })
  })
}

const dir = mkdtempSync(join(tmpdir(), 'petstore-migrations-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let files = 0

upgradeTests('SQLite', async () => {
  const path = join(dir, `legacy-${++files}.db`)
  return {
    async make() {
      const db = new Database(path)
      migrate(db, sqliteMigrations.slice(0, released))
      const insert = db.prepare('INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)')
      for (const pet of legacyPets) insert.run(pet.name, pet.categoryId, pet.status)
      insert.run('Gone', 1, 'available')
      db.prepare('DELETE FROM pets WHERE id = ?').run(deletedId)
      db.close()
    },
    open: async () => openSqliteStore(path),
    async retitle() {
      const db = new Database(path)
      migrate(db, [...sqliteMigrations, toTitle])
      const docs = db.prepare('SELECT doc FROM pets ORDER BY id').pluck().all() as string[]
      db.close()
      return docs
    },
  }
})

const postgres = await serviceAvailable('PostgreSQL', 'test/store/migrations.test.ts')
describe.runIf(postgres)('PostgreSQL', () => {
  const schemas = schemaFactory()
  afterAll(() => schemas.dropAll())
  upgradeTests('PostgreSQL', async () => {
    const schema = await schemas.create()
    const options = { url: postgresUrl, size: 1, schema }
    /** Runs `work` on one connection of a pool in the test's schema. */
    const withClient = async <T>(work: (client: import('pg').PoolClient) => Promise<T>) => {
      const pool = openPool(options)
      const client = await pool.connect()
      try {
        return await work(client)
      } finally {
        client.release()
        await pool.end()
      }
    }
    return {
      make: () =>
        withClient(async (client) => {
          await migratePostgres(client, postgresMigrations.slice(0, released))
          for (const pet of [...legacyPets, { name: 'Gone', categoryId: 1, status: 'available' }]) {
            await client.query('INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3)', [
              pet.name,
              pet.categoryId,
              pet.status,
            ])
          }
          await client.query('DELETE FROM pets WHERE id = $1', [deletedId])
        }),
      open: () => openPostgresStore(options),
      retitle: () =>
        withClient(async (client) => {
          await migratePostgres(client, [...postgresMigrations, toTitle])
          const { rows } = await client.query<{ doc: string }>(
            'SELECT doc::text AS doc FROM pets ORDER BY id',
          )
          return rows.map((row) => row.doc)
        }),
    }
  })
})
