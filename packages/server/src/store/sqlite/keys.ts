/**
 * API keys on SQLite, looked up by the hash's unique index. Found keys are cached until a
 * revocation here or a commit by another connection (external-changes.ts).
 */
import { randomBytes } from 'node:crypto'
import type Database from 'better-sqlite3'
import { type KeyRow, keyColumns, toKeyRecord as toKey } from '../key-row.js'
import type { ApiKeyRecord, KeyStore, NewApiKey } from '../store.js'
import type { ExternalChanges } from './external-changes.js'
import type { GroupCommit } from './group-commit.js'

/** Bounds the key cache; past it the cache starts over (a deployment has far fewer keys). */
const maxCachedKeys = 10_000

export function sqliteKeyStore(
  db: Database.Database,
  writes: GroupCommit,
  externalChanges: ExternalChanges,
): KeyStore {
  const insert = db.prepare<
    [string, string, string | null, string, number | null, number | null, string],
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
  let externalSeen = externalChanges()
  const cachedActive = (hash: string) => {
    const external = externalChanges()
    if (external !== externalSeen) {
      active.clear()
      externalSeen = external
    }
    return active.get(hash)
  }
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
    cachedActive,
    async findActiveByHash(hash) {
      const cached = cachedActive(hash)
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
