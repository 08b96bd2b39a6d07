/**
 * API keys on SQLite, looked up by the hash's unique index. Found keys are cached (../key-cache.ts)
 * until a revocation here or a commit by another connection (external-changes.ts).
 */
import { randomBytes } from 'node:crypto'
import type Database from 'better-sqlite3'
import type { TableChanges } from '../changes.js'
import { createKeyCache } from '../key-cache.js'
import { type KeyRow, keyColumns, toKeyRecord as toKey } from '../key-row.js'
import type { KeyStore, NewApiKey } from '../store.js'
import type { GroupCommit } from './group-commit.js'

export function sqliteKeyStore(
  db: Database.Database,
  writes: GroupCommit,
  changes: TableChanges,
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
  const cache = createKeyCache(changes)
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
    cachedActive: cache.cachedActive,
    findActiveByHash(hash) {
      return cache.findActive(hash, () => {
        const row = byHash.get(hash)
        return row === undefined ? undefined : toKey(row)
      })
    },
    async list() {
      return all.all().map(toKey)
    },
    async revoke(id) {
      const row = await writes.run(() => {
        changes.changed()
        return revoke.get(new Date().toISOString(), id)
      })
      return row === undefined ? undefined : toKey(row)
    },
    async countActive() {
      return (countActive.get() as { count: number }).count
    },
  }
}
