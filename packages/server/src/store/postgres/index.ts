/**
 * The Store on PostgreSQL (node-postgres and its pool), for several instances sharing one
 * database: pets, API keys, idempotency records and settings. Migrations run at open, under an
 * advisory lock. Creates are group-committed (batching.ts); pagination stays exact with
 * concurrent writers on any number of instances (README.md beside this file explains how), so
 * the same page cache as SQLite's is safe here.
 *
 * @example
 * ```ts
 * const store = await openPostgresStore({ url: 'postgres://root@127.0.0.1:5432/test', size: 10 })
 * const pet = await store.pets.create({ name: 'Rex', categoryId: 1, status: 'available' })
 * await store.close()
 * ```
 */
import { cachePets } from '../pet-cache.js'
import type { Store } from '../store.js'
import { connectionConfig, guarded, openPool } from './connection.js'
import { postgresIdempotencyStore } from './idempotency.js'
import { listenForKeyChanges } from './key-changes.js'
import { postgresKeyStore } from './keys.js'
import { migratePostgres } from './migrations.js'
import type { PostgresStoreOptions } from './options.js'
import { postgresPetStore } from './pets.js'

export type { PostgresStoreOptions } from './options.js'

/** Connects, migrates and returns the store; rejects when the database cannot be reached. */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<Store> {
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
  const keyChanges = listenForKeyChanges(connectionConfig(options))
  let closed: Promise<void> | undefined
  return {
    pets: cachePets(postgresPetStore(pool)),
    keys: postgresKeyStore(pool, keyChanges),
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
    // session may write (not a standby after a failover, not default_transaction_read_only).
    // Unlike SQLite's probe row it commits nothing: instances would all write on every probe,
    // so a full disk on the database server shows only in the errors of the writes themselves.
    ping: () =>
      guarded(async () => {
        const { rows } = await pool.query<{ writable: boolean }>(
          "SELECT NOT pg_is_in_recovery() AND current_setting('transaction_read_only') = 'off' AS writable",
        )
        if (rows[0]?.writable !== true) throw new Error('the database accepts no writes now')
      }),
    close() {
      closed ??= Promise.all([keyChanges.close(), pool.end()]).then(() => {})
      return closed
    },
  }
}
