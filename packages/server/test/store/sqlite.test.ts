import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, expect, it } from 'vitest'
import { openSqliteStore } from '../../src/store/sqlite.js'
import { storeConformance } from './conformance.js'

const dir = mkdtempSync(join(tmpdir(), 'petstore-sqlite-'))
let count = 0
const nextPath = () => join(dir, `store-${++count}.db`)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

storeConformance('sqlite', async () => openSqliteStore(nextPath()))

it('uses WAL with synchronous FULL and records the applied migrations', async () => {
  const path = nextPath()
  const store = openSqliteStore(path)
  await store.close()
  const db = new Database(path, { readonly: true })
  expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
  expect(db.pragma('user_version', { simple: true })).toBe(1)
  db.close()
  const reopened = openSqliteStore(path)
  await expect(reopened.ping()).resolves.toBeUndefined()
  await reopened.close()
})

it('keeps settings and pets across reopening (the cursor secret survives restarts)', async () => {
  const path = nextPath()
  const first = openSqliteStore(path)
  const secret = await first.setting('cursor-secret', () => 'one')
  const pet = await first.pets.create({ name: 'Rex', categoryId: 1, status: 'available' })
  await first.close()
  const second = openSqliteStore(path)
  expect(await second.setting('cursor-secret', () => 'two')).toBe(secret)
  expect(await second.pets.get(pet.id)).toEqual(pet)
  await second.close()
})

it('creates the directory of a new database file', async () => {
  const store = openSqliteStore(join(dir, 'nested', 'deeper', 'petstore.db'))
  await expect(store.ping()).resolves.toBeUndefined()
  await store.close()
})
