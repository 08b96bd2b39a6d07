/**
 * Schema migrations, applied in order at start. Append only: a released migration is never
 * edited, a change is a new entry. SQLite tracks the applied count in `PRAGMA user_version`.
 */
import type Database from 'better-sqlite3'
import { initial } from './001-initial.js'
import { perKeyLimits } from './002-per-key-limits.js'

export interface Migration {
  name: string
  sql: string
}

export const migrations: readonly Migration[] = [
  { name: '001-initial', sql: initial },
  { name: '002-per-key-limits', sql: perKeyLimits },
]

/** Applies the migrations this file has not seen yet, in one immediate transaction. */
export function migrate(db: Database.Database): void {
  const apply = db.transaction(() => {
    const applied = db.pragma('user_version', { simple: true }) as number
    for (const migration of migrations.slice(applied)) db.exec(migration.sql)
    db.pragma(`user_version = ${migrations.length}`)
  })
  apply.immediate()
}
