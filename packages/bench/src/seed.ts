/**
 * Prepares the service's SQLite file before start: the operator CLI creates it (running the
 * service's own migrations) and an enterprise key, then pets are inserted directly, in one
 * transaction, with one recursive INSERT: a million rows in seconds, not an hour of POSTs. The
 * pets are documents (pet-documents.ts) built in SQL from `seededPet`.
 */
import { execFile } from 'node:child_process'
import { copyFileSync } from 'node:fs'
import { promisify } from 'node:util'
import Database from 'better-sqlite3'
import { documentSql, type PetSql } from './pet-documents.js'

const run = promisify(execFile)

/** Limits far above anything the bench can send, so that limiting never refuses a request. */
export const benchKeyLimits = { perMinute: 1_000_000_000, perDay: 1_000_000_000 }

/**
 * Creates (and migrates) the database at `dbPath` (or the one `env` names, e.g. DATABASE_URL)
 * through the CLI and returns a new raw enterprise key.
 */
export async function createBenchKey(
  cliJs: string,
  dbPath: string,
  env: Readonly<Record<string, string>> = {},
): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    [
      cliJs,
      'keys',
      'create',
      '--plan',
      'enterprise',
      '--name',
      'bench',
      '--per-minute',
      String(benchKeyLimits.perMinute),
      '--per-day',
      String(benchKeyLimits.perDay),
    ],
    { env: { ...process.env, PETSTORE_DB: dbPath, DATABASE_URL: '', REDIS_URL: '', ...env } },
  )
  const key = stdout.trim()
  if (!/^\S+$/.test(key)) throw new Error(`keys create printed no key: ${JSON.stringify(stdout)}`)
  return key
}

export interface SeedPlan {
  /** Pets `1..count`, statuses `available` and `pending` alternating. */
  count: number
  /** Pets after those, all `sold`: a filter that matches only the last rows (deep cursors). */
  soldTail?: number
}

/**
 * The seeded pets as SQL over their row number `i` (SQLite and PostgreSQL alike): pet `i` is
 * named `Pet i`, has category `1 + i % 50`, and is `sold` after `soldAfter` (a SQL expression),
 * else `pending` when `i` is even and `available` when odd. The one place the bench names
 * NewPet's properties, typed by NewPet, so that a renamed or newly required one fails here.
 */
export function seededPet(soldAfter: string): PetSql {
  return {
    name: `'Pet ' || i`,
    categoryId: '1 + i % 50',
    status: `CASE WHEN i > ${soldAfter} THEN 'sold' WHEN i % 2 = 0 THEN 'pending' ELSE 'available' END`,
  }
}

/**
 * Appends the planned pets to the `pets` table of an existing database, in one transaction,
 * then checkpoints the WAL so that the file can be copied.
 */
export function seedPets(dbPath: string, plan: SeedPlan): void {
  const db = new Database(dbPath)
  try {
    db.pragma('journal_mode = WAL')
    const { into, select } = petInsert(db, seededPet('@soldAfter'))
    const insert = db.prepare<{ pets: number; soldAfter: number }>(
      `INSERT INTO ${into}
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < @pets)
       SELECT ${select} FROM n`,
    )
    const pets = plan.count + (plan.soldTail ?? 0)
    db.transaction(() => insert.run({ pets, soldAfter: plan.count })).immediate()
    db.pragma('wal_checkpoint(TRUNCATE)')
  } finally {
    db.close()
  }
}

/**
 * What writes `pet` into the `pets` table as the database has it: as a document, or, in a build
 * from before the document store (issue 29), which `paired` may take as its base, one
 * snake_case column per property.
 */
function petInsert(db: Database.Database, pet: PetSql): { into: string; select: string } {
  const columns = db.pragma('table_info(pets)') as { name: string }[]
  if (columns.some((column) => column.name === 'doc')) {
    return { into: 'pets (doc)', select: documentSql('sqlite', pet) }
  }
  const values = Object.entries(pet)
  const names = values.map(([name]) => name.replace(/[A-Z]/g, (upper) => `_${upper.toLowerCase()}`))
  return {
    into: `pets (${names.join(', ')})`,
    select: values.map(([, value]) => value).join(', '),
  }
}

/** Number of pets in the database (the durability check reads it after `kill -9`). */
export function countPets(dbPath: string): number {
  // Read-write: opening recovers a WAL left behind by a killed process.
  const db = new Database(dbPath)
  try {
    return (db.prepare('SELECT count(*) AS n FROM pets').get() as { n: number }).n
  } finally {
    db.close()
  }
}

/** A copy of a checkpointed database, for a ceiling to use without touching the service's. */
export function copyDatabase(from: string, to: string): void {
  copyFileSync(from, to)
}
