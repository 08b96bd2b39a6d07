import { linkSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import { migrations } from '../../src/store/sqlite/migrations/index.js'
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
  expect(db.pragma('user_version', { simple: true })).toBe(migrations.length)
  db.close()
  const reopened = openSqliteStore(path)
  await expect(reopened.ping()).resolves.toBeUndefined()
  await reopened.close()
})

it('lists pages at every limit from 1 to 100 and refuses any other limit', async () => {
  const store = openSqliteStore(nextPath())
  for (const name of ['a', 'b', 'c'])
    await store.pets.create({ name, categoryId: 1, status: 'sold' })
  for (let limit = 1; limit <= 100; limit++) {
    const page = await store.pets.list({ limit, status: 'sold' })
    expect([JSON.parse(page.json).length, page.hasMore]).toEqual([Math.min(limit, 3), limit < 3])
  }
  for (const limit of [0, 101, 2.5]) {
    // Read at once (resource.ts): the refusal is thrown, not a rejected promise.
    expect(() => store.pets.list({ limit })).toThrow(`limit must be 1..100, not ${limit}`)
  }
  await store.close()
})

it('answers reads at once, from the file and from its cache, without a promise', async () => {
  const store = openSqliteStore(nextPath())
  const created = await store.pets.create({ name: 'Rex', categoryId: 1, status: 'sold' })
  await store.pets.create({ name: 'Fido', categoryId: 1, status: 'sold' })
  // A pet is kept once read; a page with more after it once asked for twice (cache.ts), so the
  // third read of each is the cache's.
  for (let read = 0; read < 3; read++) {
    const pet = store.pets.get(created.id)
    const page = store.pets.list({ limit: 1 })
    expect([pet instanceof Promise, page instanceof Promise]).toEqual([false, false])
    expect(pet).toEqual(created)
    expect(JSON.parse((page as Awaited<typeof page>).json)).toEqual([created])
  }
  await store.close()
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

/** WAL frames written since the last checkpoint, read through a second connection. */
function walFrames(path: string): number {
  const db = new Database(path)
  const [result] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[]
  db.close()
  return result?.log ?? 0
}

it('commits the writes of one turn together, and all of them are on disk when they resolve', async () => {
  const path = nextPath()
  const store = openSqliteStore(path)
  const draft = { name: 'Rex', categoryId: 1, status: 'available' } as const
  await store.pets.create(draft)
  const before = walFrames(path)
  const pets = await Promise.all(Array.from({ length: 50 }, () => store.pets.create(draft)))
  // One commit per create would write at least 50 frames (the pets page alone, each time).
  expect(walFrames(path) - before).toBeLessThan(10)
  const ids = pets.map((pet) => pet.id)
  expect(ids).toEqual([...ids].sort((a, b) => a - b))
  expect(new Set(ids).size).toBe(50)
  const reader = new Database(path, { readonly: true })
  expect(reader.prepare('SELECT count(*) FROM pets').pluck().get()).toBe(51)
  reader.close()
  await store.close()
})

it('fails only the write that fails when it shares a commit with others', async () => {
  const path = nextPath()
  const store = openSqliteStore(path)
  // A trigger refuses one pet, as the database would refuse any write it cannot take.
  const admin = new Database(path)
  admin.exec(`CREATE TRIGGER refuse BEFORE INSERT ON pets
    WHEN json_extract(NEW.doc, '$.name') = 'bad' BEGIN SELECT RAISE(ABORT, 'refused'); END`)
  admin.close()
  const good = { name: 'Rex', categoryId: 1, status: 'available' } as const
  const results = await Promise.allSettled([
    store.pets.create(good),
    store.pets.create({ ...good, name: 'bad' }),
    store.pets.create(good),
  ])
  expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
  expect(String((results[1] as PromiseRejectedResult).reason)).toContain('refused')
  await store.close()
  const reopened = openSqliteStore(path)
  const page = await reopened.pets.list({ limit: 10 })
  expect(JSON.parse(page.json)).toMatchObject([{ status: 'available' }, { status: 'available' }])
  await reopened.close()
})

const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

it('stops finding a key revoked by another connection from the next turn on', async () => {
  const path = nextPath()
  const server = openSqliteStore(path)
  const cli = openSqliteStore(path)
  const key = await cli.keys.create({
    hash: 'a'.repeat(64),
    name: null,
    plan: 'free',
    perMinute: null,
    perDay: null,
  })
  expect((await server.keys.findActiveByHash('a'.repeat(64)))?.id).toBe(key.id)
  await nextTurn()
  expect((await server.keys.findActiveByHash('a'.repeat(64)))?.id).toBe(key.id)
  await cli.keys.revoke(key.id)
  await nextTurn()
  expect(await server.keys.findActiveByHash('a'.repeat(64))).toBeUndefined()
  await Promise.all([server.close(), cli.close()])
})

it('stops finding a key revoked through the same store at once', async () => {
  const store = openSqliteStore(nextPath())
  const hash = 'b'.repeat(64)
  const key = await store.keys.create({
    hash,
    name: null,
    plan: 'free',
    perMinute: null,
    perDay: null,
  })
  expect((await store.keys.findActiveByHash(hash))?.id).toBe(key.id)
  await store.keys.revoke(key.id)
  expect(await store.keys.findActiveByHash(hash)).toBeUndefined()
  await store.close()
})

it('clears the limits copied into fixed-plan keys, keeping per-key numbers and the list order', async () => {
  const path = nextPath()
  const before = new Database(path)
  before.exec((migrations[0] as { sqlite: string }).sqlite)
  before.pragma('user_version = 1')
  const insert = before.prepare(
    `INSERT INTO api_keys (id, key_hash, name, plan, per_minute, per_day, created_at)
     VALUES (?, ?, NULL, ?, ?, ?, '2026-01-01T00:00:00.000Z')`,
  )
  insert.run('key_b', 'b'.repeat(64), 'free', 60, 1000)
  insert.run('key_a', 'a'.repeat(64), 'enterprise', 5, 2)
  before.close()
  const store = openSqliteStore(path)
  expect(await store.keys.list()).toMatchObject([
    { id: 'key_b', plan: 'free', perMinute: null, perDay: null },
    { id: 'key_a', plan: 'enterprise', perMinute: 5, perDay: 2 },
  ])
  expect((await store.keys.findActiveByHash('b'.repeat(64)))?.id).toBe('key_b')
  await store.close()
})

describe('the database file under a running store', () => {
  const draft = { name: 'Rex', categoryId: 1, status: 'available' } as const

  it.each([
    ['deleted', (path: string) => rmSync(path)],
    [
      'replaced',
      (path: string) => {
        const other = `${path}.other`
        new Database(other).close()
        renameSync(other, path)
      },
    ],
  ])('refuses writes and readiness once the file is %s', async (_, change) => {
    const path = nextPath()
    const store = openSqliteStore(path)
    await store.pets.create(draft)
    await expect(store.ping()).resolves.toBeUndefined()
    change(path)
    await expect(store.pets.create(draft)).rejects.toMatchObject({
      code: 'SQLITE_READONLY_DBMOVED',
    })
    await expect(store.ping()).rejects.toMatchObject({ code: 'SQLITE_READONLY_DBMOVED' })
    await store.close()
  })
})

describe('the server lock', () => {
  it('refuses a second server on the same file with one clear line, not the CLI', async () => {
    const path = nextPath()
    const first = openSqliteStore(path, { server: true })
    let refused: unknown
    try {
      openSqliteStore(path, { server: true })
    } catch (error) {
      refused = error
    }
    expect(String((refused as Error).message)).toMatch(
      /another petstore server is using .*one server at a time/,
    )
    expect((refused as Error).message).not.toContain('\n')
    const cli = openSqliteStore(path)
    await expect(cli.ping()).resolves.toBeUndefined()
    await cli.close()
    await first.close()
    const next = openSqliteStore(path, { server: true })
    await next.close()
  })

  it.each([
    ['a hard link in another directory', (path: string, other: string) => linkSync(path, other)],
    ['a symlink', (path: string, other: string) => symlinkSync(path, other)],
  ])('refuses a second server that reaches the file through %s', async (_, link) => {
    const path = nextPath()
    const first = openSqliteStore(path, { server: true })
    await first.pets.create({ name: 'Rex', categoryId: 1, status: 'available' })
    const elsewhere = join(dir, `elsewhere-${count}`)
    mkdirSync(elsewhere)
    const other = join(elsewhere, 'other.db')
    link(path, other)
    expect(() => openSqliteStore(other, { server: true })).toThrow(
      /^another petstore server is using .*other\.db, under this name or another one .*one server at a time[^\n]*$/,
    )
    await first.close()
    const next = openSqliteStore(other, { server: true })
    expect(await next.pets.get(1)).toMatchObject({ name: 'Rex' })
    await next.close()
  })
})

it('has a key it found at hand, without a promise, until another connection commits', async () => {
  const path = nextPath()
  const store = openSqliteStore(path)
  const key = await store.keys.create({
    hash: 'c'.repeat(64),
    name: null,
    plan: 'free',
    perMinute: null,
    perDay: null,
  })
  expect(store.keys.cachedActive?.('c'.repeat(64))).toBeUndefined()
  await store.keys.findActiveByHash('c'.repeat(64))
  expect(store.keys.cachedActive?.('c'.repeat(64))).toEqual(key)
  const other = new Database(path)
  other
    .prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?')
    .run('2026-01-01T00:00:00Z', key.id)
  other.close()
  // A commit elsewhere is seen from the next turn of the event loop on.
  await new Promise((resolve) => setImmediate(resolve))
  expect(store.keys.cachedActive?.('c'.repeat(64))).toBeUndefined()
  expect(await store.keys.findActiveByHash('c'.repeat(64))).toBeUndefined()
  await store.close()
})
