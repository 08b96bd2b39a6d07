/**
 * What the embedded store keeps on disk is private: the database holds the cursor secret, key
 * hashes and stored responses. The folders the store creates are 0700 and the database file
 * 0600 whatever the umask (SQLite gives its WAL and shared-memory files the database's mode);
 * an existing folder or file that other local users can read is left as the operator made it,
 * and reported (`exposedFiles`) so that the server says so once at start.
 */
import {
  chmodSync,
  closeSync,
  existsSync,
  fchmodSync,
  mkdirSync,
  openSync,
  statSync,
} from 'node:fs'
import { dirname } from 'node:path'

const privateDirectory = 0o700
const privateFile = 0o600

/**
 * Creates `dir` and its missing parents, one level at a time, each 0700. Node's
 * `mkdirSync(dir, {recursive: true})` loops for ever where `mkdir` keeps answering ENOENT (under
 * /proc), so the server never started nor said why; here a level that cannot be made is an
 * error naming it.
 */
export function makePrivateDirectory(dir: string): void {
  const missing: string[] = []
  for (let current = dir; !existsSync(current); current = dirname(current)) {
    missing.unshift(current)
    if (dirname(current) === current) break
  }
  for (const level of missing) {
    try {
      mkdirSync(level, { mode: privateDirectory })
      // The umask applies to mkdir's mode; chmod does not.
      chmodSync(level, privateDirectory)
    } catch (error) {
      // Made meanwhile by another process starting on the same path.
      if ((error as { code?: string }).code !== 'EEXIST') throw error
    }
  }
}

/** Creates an empty file at `path`, 0600, unless one exists (never opening an existing one). */
export function createPrivateFile(path: string): void {
  let fd: number
  try {
    fd = openSync(path, 'wx', privateFile)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return
    throw error
  }
  try {
    fchmodSync(fd, privateFile)
  } finally {
    closeSync(fd)
  }
}

/**
 * The database's folder and files (the database, its WAL and shared-memory files) that other
 * local users may reach, each with its mode, e.g. `['data (0755)', 'data/petstore.db (0644)']`;
 * empty when all are private. A folder shared on purpose, with the sticky bit (`/tmp`), is left
 * out: there the files' own modes decide.
 */
export function exposedFiles(path: string): string[] {
  if (path === ':memory:') return []
  const folder = dirname(path)
  const exposed: string[] = []
  for (const candidate of [folder, path, `${path}-wal`, `${path}-shm`]) {
    let mode: number
    try {
      mode = statSync(candidate).mode & 0o7777
    } catch {
      continue
    }
    const shared = candidate === folder && (mode & 0o1000) !== 0
    if ((mode & 0o077) !== 0 && !shared) exposed.push(`${candidate} (0${mode.toString(8)})`)
  }
  return exposed
}
