/** Idempotency records on SQLite: claims, releases and the purge of expired records. */
import type Database from 'better-sqlite3'
import type { IdempotencyClaim, IdempotencyStore, StoredResponse } from '../store.js'
import type { GroupCommit } from './group-commit.js'

interface IdempotencyRow {
  state: 'in_progress' | 'completed'
  claimed_at: number
  expires_at: number
  fingerprint: string | null
  response: string | null
}

/** Completes a claimed record with its response (run in the creating transaction). */
export function completeIdempotencyStatement(
  db: Database.Database,
): Database.Statement<[string, string, string, string]> {
  return db.prepare<[string, string, string, string]>(
    `UPDATE idempotency_records SET state = 'completed', response = ?, fingerprint = ?
     WHERE scope = ? AND key = ?`,
  )
}

export function sqliteIdempotencyStore(
  db: Database.Database,
  writes: GroupCommit,
): IdempotencyStore {
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
