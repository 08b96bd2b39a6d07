/**
 * Makes the WAL durable off the event loop. With `synchronous = FULL` SQLite fsyncs the WAL inside
 * COMMIT, on the event loop's thread: the write path measured (bench `write-path`) the loop
 * blocked there for two fifths of its time under durable creates, parsing nothing. The store runs
 * `synchronous = NORMAL` instead (COMMIT writes the WAL, and syncs it only at checkpoints) and
 * the group commit (group-commit.ts) answers a group only after `sync` has fsynced the WAL file
 * in libuv's thread pool, a call started after the group's COMMIT returned: fsync makes every
 * write to the file before it durable, through whichever descriptor. So a `201` still means the
 * pet is on disk, and meanwhile the loop parses the next group.
 *
 * The descriptor stays open until the store closes, after SQLite's connection: closing a
 * descriptor of a file drops the process's POSIX locks on it (SQLite keeps none on the WAL, but
 * nothing here relies on that). SQLite never replaces the WAL file while a connection is open
 * (it is reset in place after a checkpoint), and the file guard refuses commits once the
 * database file itself was replaced.
 * @see https://www.sqlite.org/pragma.html#pragma_synchronous (NORMAL in WAL mode)
 * @see https://www.sqlite.org/wal.html#ckpt
 */
import { closeSync, constants, fsync, fsyncSync, openSync, statSync } from 'node:fs'
import type Database from 'better-sqlite3'

export interface WalSync {
  /** fsyncs the WAL; `done` gets the error, if any. */
  sync(done: (error: Error | null) => void): void
  /** The same, on this thread (at close). */
  syncNow(): void
  /** Closes the descriptor once no sync uses it. */
  close(): void
}

/**
 * The WAL of `db`'s main database, named as SQLite names it (after symbolic links), and created
 * as SQLite would (with the database's mode) when no write has made it yet.
 */
export function openWalSync(db: Database.Database): WalSync {
  const main = (db.pragma('database_list') as { name: string; file: string }[]).find(
    (row) => row.name === 'main',
  )
  if (main === undefined || main.file === '') throw new Error('the database has no file')
  const fd = openSync(
    `${main.file}-wal`,
    constants.O_RDONLY | constants.O_CREAT,
    statSync(main.file).mode & 0o777,
  )
  let inFlight = 0
  let closing = false
  return {
    sync(done) {
      inFlight++
      fsync(fd, (error) => {
        inFlight--
        if (closing && inFlight === 0) closeSync(fd)
        done(error)
      })
    },
    syncNow: () => fsyncSync(fd),
    close() {
      if (closing) return
      closing = true
      if (inFlight === 0) closeSync(fd)
    },
  }
}
