/**
 * Schema migrations, applied in order at start: SQLite's own first three, then the ones both
 * stores share (../../migrations.ts). Append only: a released migration is never edited, a change
 * is a new entry. SQLite tracks the applied count in `PRAGMA user_version`.
 */
import type Database from 'better-sqlite3'
import {
  changedDocumentText,
  type Migration,
  type StoredDocument,
  migrations as shared,
} from '../../migrations.js'
import { initial } from './001-initial.js'
import { perKeyLimits } from './002-per-key-limits.js'

/** PostgreSQL's 003 adds the triggers that announce changes; SQLite reads `data_version`. */
const tableChanges = ''

/** A migration of SQLite's own (before 004), or one both stores share. */
export type SqliteMigration = { name: string; sqlite: string } | Migration

export const migrations: readonly SqliteMigration[] = [
  { name: '001-initial', sqlite: initial },
  { name: '002-per-key-limits', sqlite: perKeyLimits },
  { name: '003-table-changes', sqlite: tableChanges },
  ...shared,
]

/** Applies the migrations this file has not seen yet, in one immediate transaction. */
export function migrate(db: Database.Database, all: readonly SqliteMigration[] = migrations): void {
  const apply = db.transaction(() => {
    const applied = db.pragma('user_version', { simple: true }) as number
    for (const migration of all.slice(applied)) {
      if ('sqlite' in migration) db.exec(migration.sqlite)
      else if ('sql' in migration) db.exec(migration.sql.sqlite)
      else changeDocuments(db, migration.documents.table, migration.documents.change)
    }
    db.pragma(`user_version = ${all.length}`)
  })
  apply.immediate()
}

/** Runs `change` over every document of `table` (../../migrations.ts: `changedDocumentText`). */
function changeDocuments(
  db: Database.Database,
  table: string,
  change: (document: StoredDocument) => StoredDocument,
): void {
  const update = db.prepare<[string, number]>(`UPDATE ${table} SET doc = ? WHERE id = ?`)
  const rows = db.prepare<[], { id: number; doc: string }>(`SELECT id, doc FROM ${table}`)
  const changed = changedDocumentText(table, change)
  for (const { id, doc } of rows.all()) update.run(changed(doc), id)
}
