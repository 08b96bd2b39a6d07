/**
 * API keys on PostgreSQL. Found keys are cached (../key-cache.ts) while the table-change listener
 * is connected (table-changes.ts): a revocation on any instance or by the CLI clears every
 * instance's cache at its commit.
 */
import { randomBytes } from 'node:crypto'
import type pg from 'pg'
import type { TableChanges } from '../changes.js'
import { createKeyCache } from '../key-cache.js'
import { type KeyRow, keyColumns, toKeyRecord as toKey } from '../key-row.js'
import type { KeyStore, NewApiKey } from '../store.js'
import { guarded } from './connection.js'

export function postgresKeyStore(pool: pg.Pool, changes: TableChanges): KeyStore {
  const cache = createKeyCache(changes)
  const lookup = (hash: string) =>
    guarded(async () => {
      const { rows } = await pool.query<KeyRow>({
        name: 'key-by-hash',
        text: `SELECT ${keyColumns} FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL`,
        values: [hash],
      })
      return rows[0] === undefined ? undefined : toKey(rows[0])
    })
  return {
    create: (input: NewApiKey) =>
      guarded(async () => {
        const { rows } = await pool.query<KeyRow>(
          `INSERT INTO api_keys (id, key_hash, name, plan, per_minute, per_day, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${keyColumns}`,
          [
            `key_${randomBytes(8).toString('hex')}`,
            input.hash,
            input.name,
            input.plan,
            input.perMinute,
            input.perDay,
            new Date().toISOString(),
          ],
        )
        return toKey(rows[0] as KeyRow)
      }),
    cachedActive: cache.cachedActive,
    findActiveByHash: (hash) => cache.findActive(hash, lookup),
    list: () =>
      guarded(async () => {
        const { rows } = await pool.query<KeyRow>(
          `SELECT ${keyColumns} FROM api_keys ORDER BY created_at, seq`,
        )
        return rows.map(toKey)
      }),
    revoke: (id) =>
      guarded(async () => {
        const { rows } = await pool.query<KeyRow>(
          `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 RETURNING ${keyColumns}`,
          [new Date().toISOString(), id],
        )
        changes.changed()
        return rows[0] === undefined ? undefined : toKey(rows[0])
      }),
    countActive: () =>
      guarded(async () => {
        const { rows } = await pool.query<{ count: number }>(
          'SELECT count(*) AS count FROM api_keys WHERE revoked_at IS NULL',
        )
        return rows[0]?.count ?? 0
      }),
  }
}
