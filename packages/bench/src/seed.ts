/**
 * Prepares a database before the service starts: the operator CLI creates it (the service's own
 * migrations) and an enterprise key; then the measured build's own store appends the pets
 * (`Store.seed`: one transaction of prepared inserts, each pet written by that build's document
 * codec), so that every build, the workspace's or another (`--server`, `paired --base`), is
 * seeded in its own format and nothing here writes its tables. A million pets take seconds.
 */
import { execFile } from 'node:child_process'
import { copyFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import type { PostgresStoreOptions, Store } from '@petstore/server'
import type { Pet } from '@petstore/types'
import Database from 'better-sqlite3'

const run = promisify(execFile)

/** This workspace's server package, the build measured unless another is named. */
export const workspaceServer = dirname(
  createRequire(import.meta.url).resolve('@petstore/server/package.json'),
)

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
 * The seeded pets, as the store takes them: pet `i` is named `Pet i`, has category `1 + i % 50`,
 * and is `sold` after `plan.count`, else `pending` when `i` is even and `available` when odd.
 * The one place the bench names Pet's properties, typed by Pet, so that a renamed or newly
 * required one fails here.
 */
export function* seededPets(plan: SeedPlan): Generator<Omit<Pet, 'id'>> {
  const pets = plan.count + (plan.soldTail ?? 0)
  for (let i = 1; i <= pets; i++) {
    yield {
      name: `Pet ${i}`,
      categoryId: 1 + (i % 50),
      status: i > plan.count ? 'sold' : i % 2 === 0 ? 'pending' : 'available',
    }
  }
}

type ServerModule = typeof import('@petstore/server')

/** The public entry point of the build in `serverDir` (its `dist/index.js`). */
function serverBuild(serverDir: string): Promise<ServerModule> {
  return import(pathToFileURL(join(serverDir, 'dist', 'index.js')).href) as Promise<ServerModule>
}

/** Chunks of creates awaited together, for a build from before `Store.seed`. */
const createChunk = 10_000

/** Appends the planned pets through `store`: its `seed`, or its creates where it has none. */
async function appendPets(store: Store, plan: SeedPlan): Promise<void> {
  if (typeof store.seed === 'function') {
    await store.seed('pets', seededPets(plan))
    return
  }
  let chunk: Promise<unknown>[] = []
  for (const pet of seededPets(plan)) {
    chunk.push(store.pets.create(pet))
    if (chunk.length === createChunk) chunk = await Promise.all(chunk).then(() => [])
  }
  await Promise.all(chunk)
}

/**
 * Appends the planned pets to the SQLite database at `dbPath` (created by the CLI) through the
 * store of the build in `serverDir`. Closing the store checkpoints the WAL, so that the file
 * can then be copied alone.
 */
export async function seedPets(serverDir: string, dbPath: string, plan: SeedPlan): Promise<void> {
  const store = (await serverBuild(serverDir)).openSqliteStore(dbPath)
  try {
    await appendPets(store, plan)
  } finally {
    await store.close()
  }
}

/** The same on PostgreSQL, in the schema `options` names. */
export async function seedPostgresPets(
  serverDir: string,
  options: PostgresStoreOptions,
  plan: SeedPlan,
): Promise<void> {
  const store = await (await serverBuild(serverDir)).openPostgresStore(options)
  try {
    await appendPets(store, plan)
  } finally {
    await store.close()
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
