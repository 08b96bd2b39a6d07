/**
 * The Store on PostgreSQL (node-postgres and its pool), for several instances sharing one
 * database: pets, API keys, idempotency records and settings. Migrations run at open, under an
 * advisory lock. Creates are group-committed (batching.ts); pagination stays exact with
 * concurrent writers on any number of instances (README.md beside this file explains how), so
 * the same page cache as SQLite's is safe here; one listening connection (table-changes.ts) tells
 * it, and the key cache, of every change made elsewhere.
 *
 * @example
 * ```ts
 * const store = await openPostgresStore({ url: 'postgres://root@127.0.0.1:5432/test', size: 10 })
 * const pet = await store.pets.create({ name: 'Rex', categoryId: 1, status: 'available' })
 * await store.close()
 * ```
 */
import type pg from 'pg'
import { BackendUnavailableError, failureHoldMs } from '../../backend-failure.js'
import { cachePets } from '../pet-cache.js'
import type { Store } from '../store.js'
import {
  connectionConfig,
  guarded,
  openPool,
  type PoolOptions,
  recentWriteFailure,
} from './connection.js'
import { postgresIdempotencyStore } from './idempotency.js'
import { postgresKeyStore } from './keys.js'
import { migratePostgres } from './migrations.js'
import { postgresPetStore } from './pets.js'
import { listenForTableChanges, type TableChangeListener } from './table-changes.js'

export type { PoolOptions as PostgresStoreOptions } from './connection.js'

/** Connects, migrates and returns the store; rejects when the database cannot be reached. */
export async function openPostgresStore(options: PoolOptions): Promise<Store> {
  const pool = await openMigratedPool(options)
  return postgresStore(pool, listenForTableChanges(connectionConfig(options)))
}

/** Opens the pool and applies the migrations; rejects when the database cannot be reached. */
export async function openMigratedPool(options: PoolOptions): Promise<pg.Pool> {
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

/**
 * The Store over a migrated pool and the listener of its schema's changes, both of which it
 * closes. Tests assemble instances from these parts to watch their listeners.
 */
export function postgresStore(pool: pg.Pool, changes: TableChangeListener): Store {
  let closed: Promise<void> | undefined
  return {
    pets: cachePets(postgresPetStore(pool), changes.tables.pets),
    keys: postgresKeyStore(pool, changes.tables.api_keys),
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
