import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, expect, it } from 'vitest'
import { openSqliteStore } from '../../src/store/sqlite/index.js'

const dir = mkdtempSync(join(tmpdir(), 'petstore-pet-cache-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const draft = (name: string) => ({ name, categoryId: 1, status: 'available' as const })
const names = (page: { json: string }) =>
  (JSON.parse(page.json) as { name: string }[]).map((pet) => pet.name)

it('reads the last page again each time, so new pets join it', async () => {
  const store = openSqliteStore(join(dir, 'last-page.db'))
  for (const name of ['a', 'b', 'c']) await store.pets.create(draft(name))
  expect(await store.pets.list({ limit: 2 })).toMatchObject({ hasMore: true })
  const last = await store.pets.list({ limit: 2, afterId: 2 })
  expect([names(last), last.hasMore]).toEqual([['c'], false])
  await store.pets.create(draft('d'))
  await store.pets.create(draft('e'))
  const grown = await store.pets.list({ limit: 2, afterId: 2 })
  expect([names(grown), grown.hasMore]).toEqual([['c', 'd'], true])
  expect(names(await store.pets.list({ limit: 2 }))).toEqual(['a', 'b'])
  await store.close()
})

it('serves pets once read, and full pages once asked for twice, from memory (pets never change)', async () => {
  const path = join(dir, 'memory.db')
  const store = openSqliteStore(path)
  for (const name of ['a', 'b', 'c']) await store.pets.create(draft(name))
  await store.pets.get(1)
  for (const _ of [1, 2]) {
    await store.pets.list({ limit: 2 })
    await store.pets.list({ limit: 2, status: 'available' })
  }
  changeNamesBehindTheStore(path)
  expect((await store.pets.get(1))?.name).toBe('a')
  expect(names(await store.pets.list({ limit: 2 }))).toEqual(['a', 'b'])
  expect(names(await store.pets.list({ limit: 2, status: 'available' }))).toEqual(['a', 'b'])
  expect(names(await store.pets.list({ limit: 2, afterId: 2 }))).toEqual(['changed'])
  expect((await store.pets.get(3))?.name).toBe('changed')
  await store.close()
})

it('does not keep a page asked for once, as the pages of a walk are', async () => {
  const path = join(dir, 'walk.db')
  const store = openSqliteStore(path)
  for (const name of ['a', 'b', 'c', 'd', 'e']) await store.pets.create(draft(name))
  expect(names(await store.pets.list({ limit: 2 }))).toEqual(['a', 'b'])
  expect(names(await store.pets.list({ limit: 2, afterId: 2 }))).toEqual(['c', 'd'])
  changeNamesBehindTheStore(path)
  expect(names(await store.pets.list({ limit: 2 }))).toEqual(['changed', 'changed'])
  expect(names(await store.pets.list({ limit: 2, afterId: 2 }))).toEqual(['changed', 'changed'])
  await store.close()
})

/** Renames every pet, as no operation of the service can. */
function changeNamesBehindTheStore(path: string) {
  const db = new Database(path)
  db.prepare(`UPDATE pets SET name = 'changed'`).run()
  db.close()
}
