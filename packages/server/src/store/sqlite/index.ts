/**
 * The Store on an embedded SQLite file (better-sqlite3). WAL so readers never wait for the
 * writer; `synchronous = FULL` so a committed transaction (a 201) survives `kill -9` and power
 * loss; every statement prepared once.
 * @see https://www.sqlite.org/wal.html
 * @see https://www.sqlite.org/pragma.html#pragma_synchronous
 */
import { accessSync, constants, statfsSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import { failureHoldMs } from '../../backend-failure.js'
import { cacheResource } from '../cache.js'
import { resourceStores } from '../resources.js'
import type { Store } from '../store.js'
import { sqliteTableChanges, watchExternalChanges } from './external-changes.js'
import { guardDatabaseFile } from './file-guard.js'
import { createPrivateFile, makePrivateDirectory } from './file-modes.js'
import { createGroupCommit, type GroupCommit } from './group-commit.js'
import { sqliteIdempotencyStore } from './idempotency.js'
import { lockForServer } from './instance-lock.js'
import { sqliteKeyStore } from './keys.js'
import { migrate } from './migrations/index.js'
import { sqliteResourceStore } from './resources.js'
import { sqliteSeeder } from './seed.js'
import { sqliteTransactions } from './transaction.js'
import { guardMethods, unavailableOr } from './unavailable.js'

/**
 * SQLite's own default page cache (2 MiB; negative means KiB), where better-sqlite3 compiles in
 * 16 MiB. Pages past it are read again from the operating system's file cache, which holds them
 * outside the process, so a walk of a large table costs the process no memory and no time.
 * @see https://www.sqlite.org/pragma.html#pragma_cache_size
 */
const pageCacheSize = -2000

/**
 * Free space below which the store says it cannot write (readiness): less than a few groups of
 * pages and their WAL frames, so the next commits would fail.
 */
const minFreeBytes = 1024 * 1024

export interface SqliteStoreOptions {
  /**
   * Open for a server: take the file's server lock (instance-lock.ts), so a second server on
   * the same file is refused. The CLI opens without it.
   */
  server?: boolean
}

/**
 * Opens (creating the file, 0600, and its directory, 0700, if needed: file-modes.ts) and
 * migrates a SQLite store. Every write goes through one group commit (group-commit.ts), so
 * concurrent writes share an fsync, and is refused once the file was deleted or replaced
 * (file-guard.ts).
 *
 * @example
 * ```ts
 * const store = openSqliteStore('./data/petstore.db')
 * const pet = await store.pets.create({ name: 'Rex', categoryId: 1, status: 'available' })
 * await store.close()
 * ```
 */
export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): Store {
  const inMemory = path === ':memory:'
  if (!inMemory) {
    makePrivateDirectory(dirname(path))
    createPrivateFile(path)
  }
  const unlock = options.server && !inMemory ? lockForServer(path) : () => {}
  let db: Database.Database
  try {
    db = new Database(path)
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = FULL')
    db.pragma('busy_timeout = 5000')
    db.pragma('foreign_keys = ON')
    db.pragma(`cache_size = ${pageCacheSize}`)
    migrate(db)
  } catch (error) {
    unlock()
    throw error
  }
  const fileGuard = inMemory ? undefined : guardDatabaseFile(path)
  const writes = createGroupCommit(db, fileGuard)
  const read = db.prepare('SELECT count(*) FROM settings')
  const externalChanges = watchExternalChanges(db)
  const transactions = sqliteTransactions(db, writes)
  // One for every resource: a write of one (an order placed) may change others (its pet).
  const resourceChanges = sqliteTableChanges(externalChanges)
  let closed = false
  return {
    ...resourceStores((definition) =>
      cacheResource(
        guardMethods(sqliteResourceStore(db, transactions, definition)),
        resourceChanges,
      ),
    ),
    keys: guardMethods(sqliteKeyStore(db, writes, sqliteTableChanges(externalChanges))),
    idempotency: guardMethods(sqliteIdempotencyStore(db, writes)),
    ...guardMethods({
      setting: settingReader(db, writes),
      seed: sqliteSeeder(db, writes, fileGuard),
    }),
    // Writes nothing (a probe row per call let an unauthenticated flood slow every create): a
    // read, then what would refuse the next commit, each without I/O on the database: a recent
    // failed commit (a full disk, an I/O error), the file deleted or replaced, a file or disk
    // that cannot be written, the disk (nearly) full.
    ping: async () => {
      try {
        read.get()
        const failure = writes.lastFailure()
        if (failure !== undefined && Date.now() - failure.atMs < failureHoldMs) throw failure.error
        if (fileGuard !== undefined) {
          fileGuard()
          checkWritable(path)
        }
      } catch (error) {
        throw unavailableOr(error)
      }
    },
    async close() {
      if (closed) return
      closed = true
      writes.flush()
      db.close()
      unlock()
    },
  }
}

/** Throws SQLite's code for what would refuse a write to the file at `path` now. */
function checkWritable(path: string): void {
  try {
    accessSync(path, constants.W_OK)
    accessSync(dirname(path), constants.W_OK)
  } catch (error) {
    throw Object.assign(
      new Error(`the database file ${path} cannot be written: ${(error as Error).message}`),
      {
        code: 'SQLITE_READONLY',
      },
    )
  }
  const disk = statfsSync(dirname(path))
  if (disk.bavail * disk.bsize < minFreeBytes) {
    throw Object.assign(new Error(`the disk of ${path} is full`), { code: 'SQLITE_FULL' })
  }
}

function settingReader(db: Database.Database, writes: GroupCommit): Store['setting'] {
  const read = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE name = ?')
  const insert = db.prepare<[string, string]>(
    'INSERT OR IGNORE INTO settings (name, value) VALUES (?, ?)',
  )
  const readOrCreate = (name: string, create: () => string) => {
    const found = read.get(name)
    if (found !== undefined) return found.value
    const value = create()
    insert.run(name, value)
    return value
  }
  return (name, create) => writes.run(() => readOrCreate(name, create))
}
