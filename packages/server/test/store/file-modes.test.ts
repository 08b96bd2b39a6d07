/**
 * What the embedded store creates on disk is private whatever the umask (folders 0700, the
 * database and its WAL and shared-memory files 0600), and a server started on a folder or
 * files that other local users can reach says so in one warning line.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { exposedFiles } from '../../src/store/sqlite/file-modes.js'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import { requireBuiltServer, startChild } from '../child-server.js'

let dir: string
beforeAll(() => {
  requireBuiltServer()
  dir = mkdtempSync(join(tmpdir(), 'petstore-file-modes-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const modeOf = (path: string) => (statSync(path).mode & 0o7777).toString(8)

/** A database file and its folder made by someone else, with these modes. */
function existingDatabase(name: string, folderMode: number, fileMode: number) {
  const folder = join(dir, name)
  mkdirSync(folder)
  chmodSync(folder, folderMode)
  const path = join(folder, 'petstore.db')
  writeFileSync(path, '')
  chmodSync(path, fileMode)
  return { folder, path }
}

it('creates its folders 0700 and the database files 0600, whatever the umask', async () => {
  const path = join(dir, 'new', 'nested', 'petstore.db')
  const umask = process.umask(0)
  let store: ReturnType<typeof openSqliteStore>
  try {
    store = openSqliteStore(path, { server: true })
  } finally {
    process.umask(umask)
  }
  await store.pets.create({ name: 'Rex', categoryId: 1, status: 'available' })
  const files = [path, `${path}-wal`, `${path}-shm`]
  expect([join(dir, 'new'), join(dir, 'new', 'nested'), ...files].map(modeOf)).toEqual([
    '700',
    '700',
    '600',
    '600',
    '600',
  ])
  expect(exposedFiles(path)).toEqual([])
  await store.close()
})

it('leaves existing looser modes as they are, and reports each', async () => {
  const { folder, path } = existingDatabase('loose', 0o755, 0o644)
  const store = openSqliteStore(path)
  await store.close()
  expect([modeOf(folder), modeOf(path)]).toEqual(['755', '644'])
  expect(exposedFiles(path)).toEqual([`${folder} (0755)`, `${path} (0644)`])
})

it('says so in one warning line at start, and nothing when all is private', async () => {
  const { folder, path: loose } = existingDatabase('served-loose', 0o750, 0o640)
  const tight = join(dir, 'served-tight', 'petstore.db')
  for (const [path, expected] of [
    // SQLite gives the WAL and shared-memory files the database's mode.
    [loose, [`${folder} (0750)`, ...['', '-wal', '-shm'].map((end) => `${loose}${end} (0640)`)]],
    [tight, undefined],
  ] as const) {
    const child = await startChild({ PETSTORE_DB: path })
    try {
      const lines = child
        .stdout()
        .split('\n')
        .filter((line) => line.includes('other local users'))
      if (expected === undefined) {
        expect(lines).toEqual([])
      } else {
        expect(lines).toHaveLength(1)
        const line = JSON.parse(lines[0] as string) as { level: number; files: string[] }
        expect([line.level, line.files]).toEqual([40, expected])
      }
    } finally {
      child.process.kill('SIGKILL')
      await child.exited
    }
  }
})
