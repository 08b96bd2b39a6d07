import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { countPets, seedPets } from '../src/seed.js'
import { createServiceDatabase, tempDir } from './helpers.js'

describe('seedPets', () => {
  const temp = tempDir()
  afterEach(() => temp.remove())

  it('appends numbered pets in one go, the sold ones last', async () => {
    const dbPath = await createServiceDatabase(join(temp.dir, 'seed.db'))
    seedPets(dbPath, { count: 1_000, soldTail: 10 })
    expect(countPets(dbPath)).toBe(1_010)
    const db = new Database(dbPath, { readonly: true })
    const statuses = db
      .prepare(
        `SELECT json_extract(doc, '$.status') AS status, min(id) AS first, max(id) AS last,
           count(*) AS n FROM pets GROUP BY status ORDER BY first`,
      )
      .all()
    db.close()
    expect(statuses).toEqual([
      { status: 'available', first: 1, last: 999, n: 500 },
      { status: 'pending', first: 2, last: 1_000, n: 500 },
      { status: 'sold', first: 1_001, last: 1_010, n: 10 },
    ])
  })
})
