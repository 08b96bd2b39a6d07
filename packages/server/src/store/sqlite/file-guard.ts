/**
 * Keeps writes on the database file this connection opened. A file deleted or replaced under a
 * running server (an operator's `rm` or `mv`, a restore) leaves the connection writing to the
 * old inode: every commit would succeed and then vanish at restart. So before each commit the
 * path is checked to still name the same file (one `stat`, shared by a group commit), and the
 * write is refused with SQLite's own code for it, which the service answers `503`.
 * @see https://www.sqlite.org/rescode.html#readonly_dbmoved
 */
import { type Stats, statSync } from 'node:fs'

/** Throws when `path` no longer names the file that was there when the guard was made. */
export type FileGuard = () => void

export function guardDatabaseFile(path: string): FileGuard {
  const opened = statSync(path)
  return () => {
    let now: Stats | undefined
    try {
      now = statSync(path)
    } catch {
      now = undefined
    }
    if (now !== undefined && now.ino === opened.ino && now.dev === opened.dev) return
    throw Object.assign(
      new Error(
        `the database file ${path} was ${now === undefined ? 'deleted' : 'replaced'} while the server ran; restart it to use the file now there`,
      ),
      { code: 'SQLITE_READONLY_DBMOVED' },
    )
  }
}
