/**
 * Idempotency records on PostgreSQL, shared by every instance: a key used on one instance
 * replays on another. A claim is one upsert that takes the row only when it is absent, expired
 * or stale, so of N concurrent claims (on any instances) exactly one wins.
 */
import type pg from 'pg'
import type { IdempotencyClaim, IdempotencyStore, StoredResponse } from '../store.js'
import { guarded } from './connection.js'

interface RecordRow {
  state: 'in_progress' | 'completed'
  fingerprint: string | null
  response: string | null
}

const claimRecord = `INSERT INTO idempotency_records AS r (scope, key, state, claimed_at, expires_at)
  VALUES ($1, $2, 'in_progress', $3, $4)
  ON CONFLICT (scope, key) DO UPDATE
    SET state = 'in_progress', claimed_at = EXCLUDED.claimed_at, expires_at = EXCLUDED.expires_at,
        fingerprint = NULL, response = NULL
    WHERE r.expires_at <= $3 OR (r.state = 'in_progress' AND r.claimed_at + $5 <= $3)
  RETURNING state`

export function postgresIdempotencyStore(pool: pg.Pool): IdempotencyStore {
  async function claim(
    scope: string,
    key: string,
    now: number,
    ttlMs: number,
    staleMs: number,
  ): Promise<IdempotencyClaim> {
    // A live record blocks the upsert; read it. It may vanish in between (released): try again.
    for (;;) {
      const claimed = await pool.query({
        name: 'claim-record',
        text: claimRecord,
        values: [scope, key, now, now + ttlMs, staleMs],
      })
      if (claimed.rowCount === 1) return { state: 'claimed' }
      const { rows } = await pool.query<RecordRow>({
        name: 'find-record',
        text: 'SELECT state, fingerprint, response FROM idempotency_records WHERE scope = $1 AND key = $2',
        values: [scope, key],
      })
      const row = rows[0]
      if (row === undefined) continue
      if (row.state === 'in_progress') return { state: 'in_progress' }
      return {
        state: 'completed',
        fingerprint: row.fingerprint ?? '',
        response: JSON.parse(row.response ?? '{}') as StoredResponse,
      }
    }
  }
  return {
    claim: (scope, key, now, ttlMs, staleMs) =>
      guarded(() => claim(scope, key, now, ttlMs, staleMs)),
    release: (scope, key) =>
      guarded(async () => {
        await pool.query(
          `DELETE FROM idempotency_records WHERE scope = $1 AND key = $2 AND state = 'in_progress'`,
          [scope, key],
        )
      }),
    purgeExpired: (now) =>
      guarded(async () => {
        const result = await pool.query('DELETE FROM idempotency_records WHERE expires_at <= $1', [
          now,
        ])
        return result.rowCount ?? 0
      }),
  }
}
