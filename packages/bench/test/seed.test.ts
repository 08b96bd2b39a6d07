/**
 * The bench seeds through the measured build's own store: a seeded database reads back through
 * the service's store as the bench means its pets, on SQLite and on PostgreSQL, and a build
 * without `Store.seed` is seeded by its creates. A change of the stored format fails here rather
 * than leaving the bench measuring the old one.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { openPostgresStore, openSqliteStore, type Store } from '@petstore/server'
import type { Pet } from '@petstore/types'
import Database from 'better-sqlite3'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import {
  countPets,
  type SeedPlan,
  seededPets,
  seedPets,
  seedPostgresPets,
  workspaceServer,
} from '../src/seed.js'
import { createServiceDatabase, tempDir } from './helpers.js'

const plan: SeedPlan = { count: 30, soldTail: 3 }

/** What the bench means by `plan`: pet `i` with id `i`, written as the spec's Pet. */
function expectedPets(): Pet[] {
  return [...seededPets(plan)].map((pet, index) => ({
    id: index + 1,
    name: pet.name,
    categoryId: pet.categoryId,
    status: pet.status,
  }))
}

/** Every pet of `store`, as its listing's JSON text, page by page. */
async function listingJson(store: Store): Promise<string[]> {
  const pages: string[] = []
  let afterId: number | undefined
  for (;;) {
    const page = await store.pets.list({ limit: 7, afterId })
    pages.push(page.json)
    if (!page.hasMore) return pages
    afterId = page.lastId
  }
}

/** The listing's JSON the service would send for `pets`, 7 to a page. */
function expectedJson(pets: readonly Pet[]): string[] {
  const pages: string[] = []
  for (let at = 0; at < pets.length; at += 7) pages.push(JSON.stringify(pets.slice(at, at + 7)))
  return pages
}

describe('seedPets', () => {
  const temp = tempDir()
  afterAll(() => temp.remove())

  it('appends the planned pets through the service’s store, read back as the bench means them', async () => {
    const dbPath = await createServiceDatabase(join(temp.dir, 'seed.db'))
    await seedPets(workspaceServer, dbPath, plan)
    // Closed and checkpointed: the file alone holds every pet.
    expect(countPets(dbPath)).toBe(33)
    const store = openSqliteStore(dbPath)
    try {
      expect(await listingJson(store)).toEqual(expectedJson(expectedPets()))
      const sold = await store.pets.list({ limit: 100, status: 'sold' })
      expect((JSON.parse(sold.json) as Pet[]).map((pet) => pet.id)).toEqual([31, 32, 33])
    } finally {
      await store.close()
    }
  })

  it('seeds a build without Store.seed by its creates, alike', async () => {
    // A build whose store has no `seed`, as every build before it.
    const build = join(temp.dir, 'older-build')
    mkdirSync(join(build, 'dist'), { recursive: true })
    const real = pathToFileURL(join(workspaceServer, 'dist', 'index.js')).href
    writeFileSync(
      join(build, 'dist', 'index.js'),
      `import { openSqliteStore as open } from ${JSON.stringify(real)}
export function openSqliteStore(path) {
  const { seed, ...store } = open(path)
  return store
}`,
    )
    const dbPath = await createServiceDatabase(join(temp.dir, 'older.db'))
    await seedPets(build, dbPath, plan)
    const db = new Database(dbPath, { readonly: true })
    const docs = db.prepare('SELECT id, doc FROM pets ORDER BY id').all() as Array<{
      id: number
      doc: string
    }>
    db.close()
    const seeded = await createServiceDatabase(join(temp.dir, 'seeded.db'))
    await seedPets(workspaceServer, seeded, plan)
    const byStoreSeed = new Database(seeded, { readonly: true })
    expect(docs).toEqual(byStoreSeed.prepare('SELECT id, doc FROM pets ORDER BY id').all())
    byStoreSeed.close()
  })

  it('appends them on PostgreSQL too, read back as the bench means them', async () => {
    const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
    const schema = `bench_${randomBytes(4).toString('hex')}`
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    try {
      await admin.query(`CREATE SCHEMA ${schema}`)
      await seedPostgresPets(workspaceServer, { url, size: 2, schema }, plan)
      const store = await openPostgresStore({ url, size: 2, schema })
      try {
        expect(await listingJson(store)).toEqual(expectedJson(expectedPets()))
      } finally {
        await store.close()
      }
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      await admin.end()
    }
  })
})
