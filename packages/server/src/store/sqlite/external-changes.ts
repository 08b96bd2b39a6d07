/**
 * Tells the caches on this connection when another connection (the operator CLI, a hand fix in
 * the sqlite3 shell, another process on the same file) has committed, through
 * `PRAGMA data_version`. Reading the pragma is a statement of its own, so one watcher serves
 * every cache of the store and reads it at most once per turn of the event loop: the requests
 * handled within one turn are concurrent with anything committed meanwhile, so they cannot tell
 * the difference, and a commit made elsewhere is seen from the next turn on. The pragma does not
 * say which table changed, so every cache takes every such commit for a change of its own.
 * @see https://www.sqlite.org/pragma.html#pragma_data_version
 */
import type Database from 'better-sqlite3'
import type { TableChanges } from '../changes.js'

/** How many commits by other connections have been seen; grows by one for each turn with any. */
export type ExternalChanges = () => number

export function watchExternalChanges(db: Database.Database): ExternalChanges {
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck()
  let version = dataVersion.get()
  let seen = 0
  let readThisTurn = false
  const nextTurn = () => {
    readThisTurn = false
  }
  return () => {
    if (readThisTurn) return seen
    readThisTurn = true
    setImmediate(nextTurn)
    const current = dataVersion.get()
    if (current !== version) {
      version = current
      seen++
    }
    return seen
  }
}

/**
 * A table's changes as a cache on this connection sees them: its own writes (`changed`) and every
 * commit by another connection. No outage can hide one, so it always listens.
 */
export function sqliteTableChanges(external: ExternalChanges): TableChanges {
  let writes = 0
  return {
    listening: true,
    get generation() {
      return writes + external()
    },
    changed() {
      writes++
    },
  }
}
