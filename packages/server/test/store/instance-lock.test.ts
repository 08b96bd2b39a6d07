/**
 * The SQLite server lock's file: in a directory only the user can write (so no other local user
 * can take it first), gone with anything beside it after every exit the process controls (close,
 * SIGTERM, SIGINT, a start that fails after taking it, `process.exit` without a close), kept by a
 * holder while a second server is refused, and alone and never in the way after a `kill -9`.
 */
import { spawn } from 'node:child_process'
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import { lockDirectory, lockPathFor } from '../../src/store/sqlite/instance-lock.js'
import { requireBuiltServer, serverJs, startChild } from '../child-server.js'

let dir: string
let count = 0
beforeAll(() => {
  requireBuiltServer()
  dir = mkdtempSync(join(tmpdir(), 'petstore-instance-lock-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const newDb = () => join(dir, `db-${++count}.db`)

/** The lock's file and any file SQLite keeps beside it (`<lock>-journal`), by name. */
const filesOf = (lockPath: string) =>
  readdirSync(dirname(lockPath)).filter((name) => name.startsWith(basename(lockPath)))

/** Runs `node` with `args` and `env` to its end: its exit code and stderr. */
function run(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk) => {
    stderr += chunk
  })
  return new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stderr })),
  )
}

describe('where the lock lives', () => {
  const uid = process.getuid?.() ?? -1

  it("is a directory of the user's own, 0700, not the shared temporary directory", () => {
    const lockPath = lockPathFor(newDb())
    expect(dirname(lockPath)).toBe(join(tmpdir(), `petstore-${uid}`))
    const folder = statSync(dirname(lockPath))
    expect([folder.uid, (folder.mode & 0o7777).toString(8)]).toEqual([uid, '700'])
  })

  it('is not blocked by another process holding the name the lock had in the shared directory', async () => {
    const path = newDb()
    await openSqliteStore(path).close()
    const { dev, ino } = statSync(path)
    // What another local user could do before: create and lock the predictable name first.
    const squatter = new Database(join(tmpdir(), `petstore-${dev}-${ino}.lock`), { timeout: 0 })
    try {
      squatter.pragma('locking_mode = EXCLUSIVE')
      squatter.exec('BEGIN EXCLUSIVE')
      const store = openSqliteStore(path, { server: true })
      await store.close()
    } finally {
      squatter.close()
      rmSync(join(tmpdir(), `petstore-${dev}-${ino}.lock`), { force: true })
    }
  })

  it("refuses a lock directory that is a symlink or another user's, naming it", () => {
    const linked = mkdtempSync(join(dir, 'base-'))
    mkdirSync(join(linked, 'elsewhere'))
    symlinkSync(join(linked, 'elsewhere'), join(linked, `petstore-${uid}`))
    expect(() => lockDirectory(linked)).toThrow(
      `the lock directory ${join(linked, `petstore-${uid}`)} is not a directory of this user's`,
    )
    // As root (CI, this machine): a directory another user made first.
    const owned = mkdtempSync(join(dir, 'base-'))
    mkdirSync(join(owned, `petstore-${uid}`), { mode: 0o700 })
    chownSync(join(owned, `petstore-${uid}`), uid + 1, uid + 1)
    expect(() => lockDirectory(owned)).toThrow(/is not a directory of this user's .*set TMPDIR/)
  })

  it('makes a directory of its own with a looser mode 0700', () => {
    const base = mkdtempSync(join(dir, 'base-'))
    mkdirSync(join(base, `petstore-${uid}`), { mode: 0o777 })
    const made = lockDirectory(base)
    expect((statSync(made).mode & 0o7777).toString(8)).toBe('700')
  })
})

describe('in process', () => {
  it('removes the file on close, and a refused second server leaves the holder its file', async () => {
    const path = newDb()
    const first = openSqliteStore(path, { server: true })
    const lockPath = lockPathFor(path)
    expect(existsSync(lockPath)).toBe(true)
    expect(() => openSqliteStore(path, { server: true })).toThrow(/another petstore server/)
    expect(existsSync(lockPath)).toBe(true)
    await first.close()
    expect(filesOf(lockPath)).toEqual([])
    const next = openSqliteStore(path, { server: true })
    expect(existsSync(lockPath)).toBe(true)
    await next.close()
    expect(filesOf(lockPath)).toEqual([])
  })

  it('takes a lock file left behind, then removes it', async () => {
    const path = newDb()
    const lockPath = lockPathFor(path)
    // What a `kill -9` leaves: the empty file, unlocked (the kernel dropped the dead's locks).
    writeFileSync(lockPath, '')
    const store = openSqliteStore(path, { server: true })
    await store.close()
    expect(filesOf(lockPath)).toEqual([])
  })
})

describe('a real server process', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('removes the file when stopped by %s', async (signal) => {
    const path = newDb()
    const child = await startChild({ PETSTORE_DB: path })
    const lockPath = lockPathFor(path)
    expect(existsSync(lockPath)).toBe(true)
    child.process.kill(signal)
    expect(await child.exited).toEqual({ code: 0, signal: null })
    expect(filesOf(lockPath)).toEqual([])
  })

  it('removes the file when its start fails after taking the lock (the port is taken)', async () => {
    const taken: Server = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const { port } = taken.address() as { port: number }
    const path = newDb()
    try {
      const ended = await run([serverJs], {
        PETSTORE_DB: path,
        HOST: '127.0.0.1',
        PORT: String(port),
      })
      expect(ended.code).toBe(1)
      expect(ended.stderr).toContain('cannot listen')
    } finally {
      taken.close()
    }
    expect(filesOf(lockPathFor(path))).toEqual([])
  })

  it('removes the file when the process exits without closing the store', async () => {
    const path = newDb()
    const store = join(dirname(serverJs), 'store', 'sqlite', 'index.js')
    const script = `const { openSqliteStore } = await import(${JSON.stringify(store)}); openSqliteStore(process.env.PETSTORE_DB, { server: true }); process.exit(3)`
    const ended = await run(['--input-type=module', '-e', script], { PETSTORE_DB: path })
    expect(ended).toEqual({ code: 3, stderr: '' })
    expect(filesOf(lockPathFor(path))).toEqual([])
  })

  it('never lets the file a kill -9 left block the next start', async () => {
    const path = newDb()
    const killed = await startChild({ PETSTORE_DB: path })
    killed.process.kill('SIGKILL')
    expect((await killed.exited).signal).toBe('SIGKILL')
    const lockPath = lockPathFor(path)
    expect(filesOf(lockPath)).toEqual([basename(lockPath)])
    const next = await startChild({ PETSTORE_DB: path })
    expect((await fetch(`${next.url}/readyz`)).status).toBe(200)
    next.process.kill('SIGTERM')
    expect((await next.exited).code).toBe(0)
    expect(filesOf(lockPath)).toEqual([])
  })
})
