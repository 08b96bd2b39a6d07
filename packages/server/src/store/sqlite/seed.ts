/**
 * `Store.seed` on SQLite: one immediate transaction of prepared inserts, each draft written by
 * the resource's document codec (../documents.ts), after the writes already queued in the group
 * commit. A million pets take seconds, where as many creates would take a commit each.
 */
import type Database from 'better-sqlite3'
import { documentCodec } from '../documents.js'
import type { Identified } from '../resource.js'
import { resources } from '../resources.js'
import type { Store } from '../store.js'
import type { GroupCommit } from './group-commit.js'

/** @param beforeCommit throws to refuse the transaction (the file guard, as for a group). */
export function sqliteSeeder(
  db: Database.Database,
  writes: GroupCommit,
  beforeCommit: () => void = () => {},
): Store['seed'] {
  return async (name, drafts) => {
    const { table, schema } = resources[name]
    const codec = documentCodec<Identified>(schema)
    const insert = db.prepare<[string]>(`INSERT INTO ${table} (doc) VALUES (?)`)
    writes.flush()
    beforeCommit()
    const appendAll = db.transaction(() => {
      let count = 0
      for (const draft of drafts) {
        insert.run(codec.encode(draft).text)
        count++
      }
      return count
    })
    return appendAll.immediate()
  }
}
