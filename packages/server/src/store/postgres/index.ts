/**
 * The Store on PostgreSQL (node-postgres and its pool), for several instances sharing one
 * database: pets, API keys, idempotency records and settings. Migrations run at open, under an
 * advisory lock. Creates are group-committed (batching.ts); pagination stays exact with
 * concurrent writers on any number of instances (README.md beside this file explains how), so
 * the same page cache as SQLite's is safe here; one listening connection (table-changes.ts) tells
 * it, and the key cache, of every change made elsewhere. This module's types are the package's
 * public ones, so it names no `pg` type (consumers need not install `@types/pg`): the parts that
 * do are in store.ts.
 *
 * @example
 * ```ts
 * const store = await openPostgresStore({ url: 'postgres://root@127.0.0.1:5432/test', size: 10 })
 * const pet = await store.pets.create({ name: 'Rex', categoryId: 1, status: 'available' })
 * await store.close()
 * ```
 */
import type { Store } from '../store.js'
import { connectionConfig } from './connection.js'
import type { PostgresStoreOptions } from './options.js'
import { openMigratedPool, postgresStore } from './store.js'
import { changedTables, listenForTableChanges } from './table-changes.js'

export type { PostgresStoreOptions } from './options.js'

/** Connects, migrates and returns the store; rejects when the database cannot be reached. */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  const pool = await openMigratedPool(options)
  return postgresStore(pool, listenForTableChanges(connectionConfig(options), changedTables))
}
