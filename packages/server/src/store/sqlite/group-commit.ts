/**
 * Group commit for the SQLite store. With `synchronous = FULL` every commit waits for an fsync,
 * and a disk does about as many fsyncs per second as the service would otherwise do writes. So
 * writes requested in the same turn of the event loop are queued and applied together, each in
 * one transaction: one fsync makes the whole group durable, and every promise settles only
 * after that commit, so a caller that sees success (a 201) still has its write on disk. A write
 * that fails rejects alone and the others commit: a group is first applied as it is, and only
 * when one of its writes throws is it applied again with each write in its own savepoint, so a
 * write may run twice (its first run rolled back) and touches nothing but this connection.
 * (A savepoint per write, always, would cost two more statements per create.)
 *
 * better-sqlite3 is synchronous: while a group is applied nothing else runs in this process, and
 * the requests that arrive during its fsync form the next group.
 * @see https://www.sqlite.org/lang_savepoint.html
 */
import type Database from 'better-sqlite3'
import { commitDurable, commitStarted } from '../commit-channel.js'
import { sqliteCondition } from './unavailable.js'

export interface GroupCommit {
  /**
   * Runs `write` (synchronous statements on this connection, nothing else that a second run
   * would repeat) in the next group's transaction and resolves with its result once that
   * transaction is committed.
   */
  run<T>(write: () => T): Promise<T>
  /** Applies the queued writes now (before the connection closes). */
  flush(): void
  /**
   * When the last group failed as a whole (the file cannot be written: disk full, I/O error,
   * moved file), that failure; undefined once a group commits again.
   */
  lastFailure(): { atMs: number; error: unknown } | undefined
}

interface Queued {
  write: () => unknown
  resolve: (value: unknown) => void
  reject: (reason: unknown) => void
  outcome?: { ok: true; value: unknown } | { ok: false; error: unknown }
}

/** @param beforeCommit throws to refuse the whole group (e.g. the file guard, file-guard.ts) */
export function createGroupCommit(
  db: Database.Database,
  beforeCommit: () => void = () => {},
): GroupCommit {
  let queue: Queued[] = []
  let failure: { atMs: number; error: unknown } | undefined
  // better-sqlite3 runs a transaction function called inside another one as a savepoint.
  const inSavepoint = db.transaction((write: () => unknown) => write())
  const applyGroup = db.transaction((group: Queued[]) => {
    for (const item of group) item.outcome = { ok: true, value: item.write() }
  })
  const applyIsolated = db.transaction((group: Queued[]) => {
    for (const item of group) {
      try {
        item.outcome = { ok: true, value: inSavepoint(item.write) }
      } catch (error) {
        // Some errors (SQLITE_FULL, SQLITE_BUSY, ...) roll back the whole transaction: then
        // nothing of the group can commit, so the group fails as one.
        if (!db.inTransaction) throw error
        item.outcome = { ok: false, error }
      }
    }
  })

  function flush() {
    const group = queue
    if (group.length === 0) return
    queue = []
    const startedAt = commitStarted()
    try {
      beforeCommit()
      try {
        applyGroup.immediate(group)
      } catch (error) {
        // Rolled back. The file refused the group (full, locked, gone): it fails as one, now,
        // rather than waiting for the lock again. Else a write failed: the isolated run finds it.
        if (sqliteCondition(error) !== undefined) throw error
        applyIsolated.immediate(group)
      }
    } catch (error) {
      failure = { atMs: Date.now(), error }
      for (const item of group) item.reject(error)
      return
    }
    failure = undefined
    commitDurable('sqlite', group.length, startedAt)
    for (const item of group) {
      const outcome = item.outcome as NonNullable<Queued['outcome']>
      if (outcome.ok) item.resolve(outcome.value)
      else item.reject(outcome.error)
    }
  }

  return {
    run<T>(write: () => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ write, resolve: resolve as (value: unknown) => void, reject })
        if (queue.length === 1) setImmediate(flush)
      })
    },
    flush,
    lastFailure: () => failure,
  }
}
