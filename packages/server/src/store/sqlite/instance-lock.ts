/**
 * One server per SQLite file. The embedded store keeps rate limits, bans and caches in the
 * server's memory, and SQLite's WAL and shared-memory files are named after the path: two
 * servers on one file, each through a path of its own (a hard link, a symlink, a bind mount),
 * would hand out the same ids and corrupt the file. So the lock belongs to the file itself, not
 * to a path: it is named by the file's device and inode, which every path to it shares, in the
 * machine's temporary directory. It is an exclusive SQLite transaction held open on that lock
 * file: SQLite's POSIX locks are released by the kernel when the process dies, so a crash never
 * leaves a stale lock, and the operator CLI (which does not take it) keeps working beside the
 * running server. Lock files stay behind (removing one could let two servers hold two files).
 * @see https://www.sqlite.org/lockingv3.html
 * @see https://www.sqlite.org/wal.html#walfile (the WAL file is named after the path)
 */
import { closeSync, openSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'

/** Where the lock of the file at `path` lives: named by its device and inode. */
export function lockPathFor(path: string, directory = tmpdir()): string {
  // An empty file is a new SQLite database: create it so that it has an inode to lock.
  closeSync(openSync(path, 'a'))
  const { dev, ino } = statSync(path)
  return join(directory, `petstore-${dev}-${ino}.lock`)
}

/** Takes the server lock of the database at `path`; returns its release. */
export function lockForServer(path: string): () => void {
  const lockPath = lockPathFor(path)
  const lock = new Database(lockPath, { timeout: 0 })
  try {
    lock.pragma('locking_mode = EXCLUSIVE')
    lock.exec('BEGIN EXCLUSIVE')
  } catch (error) {
    lock.close()
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) {
      throw new Error(
        `another petstore server is using ${path}, under this name or another one (hard link, symlink, bind mount: ${lockPath} is locked); the embedded SQLite store serves one server at a time: stop the other one, or use DATABASE_URL for several`,
      )
    }
    throw error
  }
  return () => lock.close()
}
