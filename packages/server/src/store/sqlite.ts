/**
 * The Store on an embedded SQLite file (better-sqlite3). WAL so readers never wait for the
 * writer; `synchronous = FULL` so a committed transaction (a 201) survives `kill -9` and power
 * loss; every statement prepared once.
 * @see https://www.sqlite.org/wal.html
 * @see https://www.sqlite.org/pragma.html#pragma_synchronous
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Pet, Plan } from '@petstore/types'
import Database from 'better-sqlite3'
import type { ApiKeyRecord } from '../auth/caller.js'
import { watchExternalChanges } from './external-changes.js'
import { createGroupCommit, type GroupCommit } from './group-commit.js'
import { migrations } from './migrations/index.js'
import { cachePets } from './pet-cache.js'
import type {
  IdempotencyClaim,
  IdempotencyCompletion,
  IdempotencyStore,
  KeyStore,
  ListPetsQuery,
  NewApiKey,
  PetDraft,
  PetPage,
  PetStore,
  Store,
  StoredResponse,
} from './store.js'

interface KeyRow {
  id: string
  name: string | null
  plan: Plan
  per_minute: number
  per_day: number
  created_at: string
  revoked_at: string | null
}

interface IdempotencyRow {
  state: 'in_progress' | 'completed'
  claimed_at: number
  expires_at: number
  fingerprint: string | null
  response: string | null
}

/**
 * Opens (creating the file and its directory if needed) and migrates a SQLite store. Every
 * write goes through one group commit (group-commit.ts), so concurrent writes share an fsync.
 *
 * @example
 * ```ts
 * const store = openSqliteStore('./data/petstore.db')
 * const pet = await store.pets.create({ name: 'Rex', categoryId: 1, status: 'available' })
 * await store.close()
 * ```
 */
export function openSqliteStore(path: string): Store {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = FULL')
  db.pragma('busy_timeout = 5000')
  db.pragma('foreign_keys = ON')
  migrate(db)
  const writes = createGroupCommit(db)
  let closed = false
  return {
    pets: cachePets(sqlitePetStore(db, writes)),
    keys: sqliteKeyStore(db, writes),
    idempotency: sqliteIdempotencyStore(db, writes),
    setting: settingReader(db, writes),
    async ping() {
      db.prepare('SELECT 1').get()
    },
    async close() {
      if (closed) return
      closed = true
      writes.flush()
      db.close()
    },
  }
}

function migrate(db: Database.Database): void {
  const apply = db.transaction(() => {
    const applied = db.pragma('user_version', { simple: true }) as number
    for (const migration of migrations.slice(applied)) db.exec(migration.sql)
    db.pragma(`user_version = ${migrations.length}`)
  })
  apply.immediate()
}

/** Columns aliased to the Pet's property names, so rows are Pets without a copy. */
const petColumns = 'id, name, category_id AS categoryId, status'

function sqlitePetStore(db: Database.Database, writes: GroupCommit): PetStore {
  const insert = db.prepare<[string, number, string], Pet>(
    `INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?) RETURNING ${petColumns}`,
  )
  const complete = completeStatement(db)
  const byId = db.prepare<[number], Pet>(`SELECT ${petColumns} FROM pets WHERE id = ?`)
  const page = db.prepare<[number, number], Pet>(
    `SELECT ${petColumns} FROM pets WHERE id > ? ORDER BY id LIMIT ?`,
  )
  const pageByStatus = db.prepare<[number, string, number], Pet>(
    `SELECT ${petColumns} FROM pets WHERE id > ? AND status = ? ORDER BY id LIMIT ?`,
  )
  const create = (draft: PetDraft, completion: IdempotencyCompletion | undefined) => {
    const pet = insert.get(draft.name, draft.categoryId, draft.status) as Pet
    if (completion !== undefined) {
      complete.run(
        JSON.stringify(completion.respond(pet)),
        completion.fingerprint,
        completion.scope,
        completion.key,
      )
    }
    return pet
  }
  return {
    create(draft, idempotency) {
      return writes.run(() => create(draft, idempotency))
    },
    async get(id) {
      if (!Number.isSafeInteger(id) || id < 1) return undefined
      return byId.get(id)
    },
    async list(query: ListPetsQuery): Promise<PetPage> {
      const after = query.afterId ?? 0
      const rows =
        query.status === undefined
          ? page.all(after, query.limit + 1)
          : pageByStatus.all(after, query.status, query.limit + 1)
      const hasMore = rows.length > query.limit
      if (hasMore) rows.pop()
      return { pets: rows, hasMore }
    },
  }
}

function completeStatement(db: Database.Database) {
  return db.prepare<[string, string, string, string]>(
    `UPDATE idempotency_records SET state = 'completed', response = ?, fingerprint = ?
     WHERE scope = ? AND key = ?`,
  )
}

function toKey(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    perMinute: row.per_minute,
    perDay: row.per_day,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  }
}

const keyColumns = 'id, name, plan, per_minute, per_day, created_at, revoked_at'
/** Bounds the key cache; past it the cache starts over (a deployment has far fewer keys). */
const maxCachedKeys = 10_000

function sqliteKeyStore(db: Database.Database, writes: GroupCommit): KeyStore {
  const insert = db.prepare<
    [string, string, string | null, string, number, number, string],
    KeyRow
  >(
    `INSERT INTO api_keys (id, key_hash, name, plan, per_minute, per_day, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${keyColumns}`,
  )
  const byHash = db.prepare<[string], KeyRow>(
    `SELECT ${keyColumns} FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL`,
  )
  const all = db.prepare<[], KeyRow>(
    `SELECT ${keyColumns} FROM api_keys ORDER BY created_at, rowid`,
  )
  const revoke = db.prepare<[string, string], KeyRow>(
    `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? RETURNING ${keyColumns}`,
  )
  const countActive = db.prepare<[], { count: number }>(
    'SELECT count(*) AS count FROM api_keys WHERE revoked_at IS NULL',
  )
  // Every authenticated request looks its key up: found keys are kept until a revocation here
  // or any commit by another connection (the CLI revoking) clears them all. Unknown hashes are
  // never kept, so guessing cannot fill the map.
  const active = new Map<string, ApiKeyRecord>()
  const externalChanges = watchExternalChanges(db)
  return {
    async create(input: NewApiKey) {
      const id = `key_${randomBytes(8).toString('hex')}`
      const createdAt = new Date().toISOString()
      const row = await writes.run(() =>
        insert.get(
          id,
          input.hash,
          input.name,
          input.plan,
          input.perMinute,
          input.perDay,
          createdAt,
        ),
      )
      return toKey(row as KeyRow)
    },
    async findActiveByHash(hash) {
      if (externalChanges()) active.clear()
      const cached = active.get(hash)
      if (cached !== undefined) return cached
      const row = byHash.get(hash)
      if (row === undefined) return undefined
      if (active.size >= maxCachedKeys) active.clear()
      const key = Object.freeze(toKey(row))
      active.set(hash, key)
      return key
    },
    async list() {
      return all.all().map(toKey)
    },
    async revoke(id) {
      const row = await writes.run(() => {
        active.clear()
        return revoke.get(new Date().toISOString(), id)
      })
      return row === undefined ? undefined : toKey(row)
    },
    async countActive() {
      return (countActive.get() as { count: number }).count
    },
  }
}

function sqliteIdempotencyStore(db: Database.Database, writes: GroupCommit): IdempotencyStore {
  const find = db.prepare<[string, string], IdempotencyRow>(
    'SELECT state, claimed_at, expires_at, fingerprint, response FROM idempotency_records WHERE scope = ? AND key = ?',
  )
  const upsert = db.prepare<[string, string, number, number]>(
    `INSERT OR REPLACE INTO idempotency_records (scope, key, state, claimed_at, expires_at)
     VALUES (?, ?, 'in_progress', ?, ?)`,
  )
  const release = db.prepare<[string, string]>(
    `DELETE FROM idempotency_records WHERE scope = ? AND key = ? AND state = 'in_progress'`,
  )
  const purge = db.prepare<[number]>('DELETE FROM idempotency_records WHERE expires_at <= ?')
  const claim = (
    scope: string,
    key: string,
    now: number,
    ttlMs: number,
    staleMs: number,
  ): IdempotencyClaim => {
    const row = find.get(scope, key)
    const live =
      row !== undefined &&
      row.expires_at > now &&
      !(row.state === 'in_progress' && row.claimed_at + staleMs <= now)
    if (live && row.state === 'in_progress') return { state: 'in_progress' }
    if (live && row.state === 'completed') {
      return {
        state: 'completed',
        fingerprint: row.fingerprint ?? '',
        response: JSON.parse(row.response ?? '{}') as StoredResponse,
      }
    }
    upsert.run(scope, key, now, now + ttlMs)
    return { state: 'claimed' }
  }
  return {
    claim(scope, key, now, ttlMs, staleMs) {
      return writes.run(() => claim(scope, key, now, ttlMs, staleMs))
    },
    async release(scope, key) {
      await writes.run(() => release.run(scope, key))
    },
    purgeExpired(now) {
      return writes.run(() => purge.run(now).changes)
    },
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
