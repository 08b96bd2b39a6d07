/**
 * Tells a cache on this connection when another connection (the operator CLI, another process
 * on the same file) has committed, through `PRAGMA data_version`. Reading the pragma costs about
 * half of a key lookup, so it is read at most once per turn of the event loop: the requests
 * handled within one turn are concurrent with anything committed meanwhile, so they cannot tell
 * the difference, and a commit made elsewhere is seen from the next turn on.
 * @see https://www.sqlite.org/pragma.html#pragma_data_version
 */
import type Database from 'better-sqlite3'

/** Returns true when another connection committed since the previous call that returned true. */
export type ExternalChanges = () => boolean

export function watchExternalChanges(db: Database.Database): ExternalChanges {
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck()
  let seen = dataVersion.get()
  let readThisTurn = false
  const nextTurn = () => {
    readThisTurn = false
  }
  return () => {
    if (readThisTurn) return false
    readThisTurn = true
    setImmediate(nextTurn)
    const current = dataVersion.get()
    if (current === seen) return false
    seen = current
    return true
  }
}
