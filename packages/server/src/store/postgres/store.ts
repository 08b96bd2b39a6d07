/**
 * The parts a PostgreSQL Store is assembled from (index.ts opens one): a migrated pool, and the
 * Store over it and its listener of table changes. Tests assemble instances from these parts to
 * watch their listeners.
 */
import type pg from 'pg'
import { BackendUnavailableError, failureHoldMs } from '../../backend-failure.js'
import { cacheResource } from '../cache.js'
import type { TableChanges } from '../changes.js'
import { resourceStores } from '../resources.js'
import type { Store } from '../store.js'
import { guarded, openPool, recentWriteFailure } from './connection.js'
import { postgresIdempotencyStore } from './idempotency.js'
import { postgresKeyStore } from './keys.js'
import { migratePostgres } from './migrations.js'
import type { PostgresStoreOptions } from './options.js'
import { postgresResourceStore } from './resources.js'
import { postgresSeeder } from './seed.js'
import type { TableChangeListener } from './table-changes.js'
import { postgresTransactions } from './transaction.js'

/** Opens the pool and applies the migrations; rejects when the database cannot be reached. */
export async function openMigratedPool(options: PostgresStoreOptions): Promise<pg.Pool> {
  const pool = openPool(options)
  try {
    const client = await pool.connect()
    try {
      await migratePostgres(client)
    } finally {
      client.release()
    }
  } catch (error) {
    await pool.end()
    throw error
  }
  return pool
}

/** The Store over a migrated pool and the listener of its schema's changes, both of which it closes. */
export function postgresStore(pool: pg.Pool, changes: TableChangeListener): Store {
  let closed: Promise<void> | undefined
  const transactions = postgresTransactions(pool)
  return {
    ...resourceStores((definition) =>
      cacheResource(
        postgresResourceStore(pool, transactions, definition),
        changes.tables[definition.table] as TableChanges,
        { shared: true },
      ),
    ),
    keys: postgresKeyStore(pool, changes.tables.api_keys as TableChanges),
    idempotency: postgresIdempotencyStore(pool),
    setting: (name, create) =>
      guarded(async () => {
        await pool.query(
          'INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT DO NOTHING',
          [name, create()],
        )
        const { rows } = await pool.query<{ value: string }>(
          'SELECT value FROM settings WHERE name = $1',
          [name],
        )
        return (rows[0] as { value: string }).value
      }),
    seed: postgresSeeder(pool),
    // "Can serve reads and writes now", short of writing: a pooled connection answers and its
    // session may write (not a standby after a failover, not default_transaction_read_only),
    // and no write was refused by the database (a full disk) in the last moments. It commits
    // nothing: instances would all write on every probe. A session that may not write is
    // dropped, so the next one sees the database as it is now (after a failover or a RESET).
    ping: () =>
      guarded(async () => {
        const refused = recentWriteFailure(pool, failureHoldMs)
        if (refused !== undefined) throw refused
        const client = await pool.connect()
        let writable = false
        try {
          const { rows } = await client.query<{ writable: boolean }>(
            "SELECT NOT pg_is_in_recovery() AND current_setting('transaction_read_only') = 'off' AS writable",
          )
          writable = rows[0]?.writable === true
        } finally {
          client.release(!writable)
        }
        if (!writable) {
          throw new BackendUnavailableError('postgres', 'read-only', {
            cause: new Error('the database accepts no writes now'),
          })
        }
      }),
    close() {
      closed ??= Promise.all([changes.close(), pool.end()]).then(() => {})
      return closed
    },
  }
}
