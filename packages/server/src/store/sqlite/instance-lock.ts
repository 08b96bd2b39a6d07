/**
 * One server per SQLite file. The embedded store keeps rate limits, bans and caches in the
 * server's memory, so two servers on one file would each enforce their own limits. The lock is
 * an exclusive SQLite transaction held open on a side file (`<db>.lock`): SQLite's POSIX locks
 * are released by the kernel when the process dies, so a crash never leaves a stale lock, and
 * the operator CLI (which does not take it) keeps working beside the running server.
 * @see https://www.sqlite.org/lockingv3.html
 */
import Database from 'better-sqlite3'

/** Takes the server lock of the database at `path`; returns its release. */
export function lockForServer(path: string): () => void {
  const lockPath = `${path}.lock`
  const lock = new Database(lockPath, { timeout: 0 })
  try {
    lock.pragma('locking_mode = EXCLUSIVE')
    lock.exec('BEGIN EXCLUSIVE')
  } catch (error) {
    lock.close()
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) {
      throw new Error(
        `another petstore server is using ${path} (${lockPath} is locked); the embedded SQLite store serves one server at a time: stop the other one, or use DATABASE_URL for several`,
      )
    }
    throw error
  }
  return () => lock.close()
}
