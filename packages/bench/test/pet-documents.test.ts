import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { openPostgresStore, openSqliteStore } from '@petstore/server'
import type { NewPet, Pet } from '@petstore/types'
import { openapiDocument } from '@petstore/types/spec'
import Database from 'better-sqlite3'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { documentSql, draftDocument, pageJson, petJson } from '../src/pet-documents.js'
import { seededPet, seedPets } from '../src/seed.js'
import { createServiceDatabase, tempDir } from './helpers.js'

/** Pet 5 as the seed makes it when pets after 4 are sold, given as the service's store takes it. */
const soldFifth: Omit<Pet, 'id'> = { name: 'Pet 5', categoryId: 6, status: 'sold' }

describe('seeded documents', () => {
  const temp = tempDir()
  afterAll(() => temp.remove())

  it('are on SQLite the text the service’s store writes for the same pet', async () => {
    const dbPath = await createServiceDatabase(join(temp.dir, 'documents.db'))
    seedPets(dbPath, { count: 4, soldTail: 1 })
    const store = openSqliteStore(dbPath)
    const created = await store.pets.create(soldFifth)
    await store.close()
    const db = new Database(dbPath, { readonly: true })
    const doc = db.prepare<[number], string>('SELECT doc FROM pets WHERE id = ?').pluck()
    const [seeded, stored] = [doc.get(5), doc.get(created.id)]
    db.close()
    expect(seeded).toBe(stored)
  })

  it('are on PostgreSQL the text the service’s store writes for the same pet', async () => {
    const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
    const schema = `bench_${randomBytes(4).toString('hex')}`
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    await admin.query(`CREATE SCHEMA ${schema}`)
    try {
      const store = await openPostgresStore({ url, size: 1, schema })
      await admin.query(
        `INSERT INTO ${schema}.pets (doc)
         SELECT ${documentSql('postgres', seededPet('4'))} FROM generate_series(1, 5) AS i`,
      )
      const created = await store.pets.create(soldFifth)
      await store.close()
      const { rows } = await admin.query<{ doc: string }>(
        `SELECT doc::text AS doc FROM ${schema}.pets WHERE id IN (5, $1) ORDER BY id`,
        [created.id],
      )
      expect(rows).toHaveLength(2)
      expect(rows[0]?.doc).toBe(rows[1]?.doc)
    } finally {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`)
      await admin.end()
    }
  })
})

describe('the ceilings’ JSON', () => {
  it('splices the id before a document as JSON.stringify writes the pet', () => {
    const pets: Pet[] = [
      { id: 1, ...soldFifth },
      { id: 2, name: 'Rex "the dog"', categoryId: 1, status: 'available' },
    ]
    const rows = pets.map(({ id, ...draft }) => ({ id, doc: JSON.stringify(draft) }))
    expect(pageJson(rows)).toBe(JSON.stringify(pets))
    expect(pageJson([])).toBe('[]')
    expect(petJson(3, '{}')).toBe('{"id":3}')
  })

  it('stores a draft with NewPet’s defaults filled in, as the service answers it', () => {
    const draft: NewPet = { name: 'Rex', categoryId: 1 }
    const status = openapiDocument.components.schemas.NewPet.properties.status.default
    expect(JSON.parse(draftDocument(draft))).toEqual({ ...draft, status })
  })
})
