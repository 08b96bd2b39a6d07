/**
 * One server per SQLite file. The embedded store keeps rate limits, bans and caches in the
 * server's memory, and SQLite's WAL and shared-memory files are named after the path: two
 * servers on one file, each through a path of its own (a hard link, a symlink, a bind mount),
 * would hand out the same ids and corrupt the file. So the lock belongs to the file itself, not
 * to a path: it is named by the file's device and inode, which every path to it shares. It lives
 * in a directory of the user's own, `$TMPDIR/petstore-<uid>` (0700, checked to be the user's
 * and no one else's, as tmux checks its socket directory): in the shared temporary directory
 * itself another local user could create and lock the name first and keep the server from
 * starting. It is an exclusive SQLite transaction held open on that lock
 * file: SQLite's POSIX locks are released by the kernel when the process dies, so a lock file
 * left by a crash or a `kill -9` is unlocked, and the next server takes it; the operator CLI
 * (which does not take it) keeps working beside the running server. Servers of two users on one
 * file do not see each other's locks: the file's own mode (0600, file-modes.ts) keeps the other
 * user out.
 *
 * The holder removes its lock file when it lets go (on close, and at process exit for any path
 * that skips the close), while still holding the lock, and a server that gets the lock checks
 * that the file it locked is still the one at the lock's path: a server that opened the file
 * just before its holder removed it would otherwise hold a lock nobody else can see, while a
 * third server locked a new file under the same name.
 *
 * A process never opens and closes a file of its own besides SQLite's connections: closing any
 * descriptor of a file drops every POSIX lock the process holds on it.
 * @see https://www.sqlite.org/lockingv3.html
 * @see https://www.sqlite.org/wal.html#walfile (the WAL file is named after the path)
 * @see https://www.sqlite.org/howtocorrupt.html#_posix_advisory_locks_canceled_by_a_separate_thread_doing_close_
 */
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, statSync, unlinkSync } from 'node:fs'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { createPrivateFile } from './file-modes.js'

/**
 * The directory of this user's lock files under `base`, created 0700 if absent. One that is a
 * symlink, or another user's, is refused naming it; one of the user's own with a looser mode is
 * made 0700.
 */
export function lockDirectory(base = tmpdir()): string {
  const uid = process.getuid?.() ?? userInfo().uid
  const directory = join(base, `petstore-${uid}`)
  try {
    mkdirSync(directory, { mode: 0o700 })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  const found = lstatSync(directory)
  if (!found.isDirectory() || found.uid !== uid) {
    throw new Error(
      `the lock directory ${directory} is not a directory of this user's (uid ${uid}): remove it, or set TMPDIR to a directory of your own`,
    )
  }
  if ((found.mode & 0o777) !== 0o700) chmodSync(directory, 0o700)
  return directory
}

/** Where the lock of the file at `path` lives: named by its device and inode. */
export function lockPathFor(path: string, directory = lockDirectory()): string {
  // An empty file is a new SQLite database: create it so that it has an inode to lock.
  createPrivateFile(path)
  const { dev, ino } = statSync(path)
  return join(directory, `petstore-${dev}-${ino}.lock`)
}

/** The lock files this process holds: removed at exit if their close never came. */
const held = new Set<string>()
let removeAtExit = false

/** Takes the server lock of the database at `path`; returns its release. */
export function lockForServer(path: string): () => void {
  const lockPath = lockPathFor(path)
  for (;;) {
    createIfAbsent(lockPath)
    const locked = inodeAt(lockPath)
    const lock = new Database(lockPath, { timeout: 0 })
    try {
      lock.pragma('locking_mode = EXCLUSIVE')
      // The lock file never holds data, and a journal on disk (`<lock>-journal`) outlives any exit
      // that skips the close, a kill -9 among them.
      lock.pragma('journal_mode = MEMORY')
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
    if (locked !== undefined && inodeAt(lockPath) === locked) return holding(lockPath, lock)
    // Its holder removed the file between our look and our lock: take the one there now.
    lock.close()
  }
}

function holding(lockPath: string, lock: Database.Database): () => void {
  held.add(lockPath)
  if (!removeAtExit) {
    removeAtExit = true
    process.on('exit', () => {
      for (const path of held) removeFile(path)
    })
  }
  return () => {
    if (!held.delete(lockPath)) return
    removeFile(lockPath)
    lock.close()
  }
}

/** Creates an empty file at `path` unless one exists (never opening an existing one). */
function createIfAbsent(path: string): void {
  try {
    closeSync(openSync(path, 'wx'))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
}

function inodeAt(path: string): number | undefined {
  try {
    return statSync(path).ino
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

/** Removes a lock file; one already gone (a temp-directory cleaner) is no matter. */
function removeFile(path: string): void {
  try {
    unlinkSync(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
}
