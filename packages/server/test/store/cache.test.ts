import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Pet } from '@petstore/types'
import Database from 'better-sqlite3'
import { afterAll, expect, it } from 'vitest'
import { cacheResource } from '../../src/store/cache.js'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import type { PetDraft, PetStore } from '../../src/store/store.js'

const dir = mkdtempSync(join(tmpdir(), 'petstore-cache-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const draft = (name: string) => ({ name, categoryId: 1, status: 'available' as const })
const names = (page: { json: string }) =>
  (JSON.parse(page.json) as { name: string }[]).map((pet) => pet.name)
const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

/** A PetStore with a write method a team might add besides update and remove. */
interface EditablePetStore extends PetStore {
  /** Deletes, then fails as a lost reply would: the pet is gone all the same. */
  removeAndFail(id: number): Promise<never>
}

/** Renames the pet, as an update's change. */
const renamed =
  (name: string) =>
  ({ id: _, ...pet }: Pet): PetDraft => ({ ...pet, name })

/**
 * An EditablePetStore over an array that counts the reads reaching it (`reads`), and whose reads
 * wait for `hold` (when set) after taking their snapshot, as a read racing a write would.
 */
function memoryPets() {
  const rows: Pet[] = []
  const counts = { reads: 0, hold: undefined as Promise<void> | undefined }
  const held = async <T>(snapshot: T): Promise<T> => {
    counts.reads++
    await counts.hold
    return snapshot
  }
  const unused = undefined as never
  const pets: EditablePetStore = {
    async create(draft) {
      const pet = { id: rows.length + 1, ...draft }
      rows.push(pet)
      return { ...pet }
    },
    get(id) {
      const pet = rows.find((row) => row.id === id)
      return held(pet && { ...pet })
    },
    list({ limit, afterId = 0, status }) {
      const matching = rows.filter(
        (row) => row.id > afterId && (status ?? row.status) === row.status,
      )
      const page = matching.slice(0, limit)
      const json = JSON.stringify(page)
      return held({ json, lastId: page.at(-1)?.id, hasMore: matching.length > limit })
    },
    async update(id, change) {
      const pet = rows.find((row) => row.id === id)
      if (pet !== undefined) Object.assign(pet, await change({ ...pet }, unused))
      return pet && { ...pet }
    },
    async remove(id) {
      const index = rows.findIndex((row) => row.id === id)
      if (index >= 0) rows.splice(index, 1)
      return index >= 0
    },
    async removeAndFail(id) {
      rows.splice(
        rows.findIndex((row) => row.id === id),
        1,
      )
      throw new Error('connection lost after the commit')
    },
  }
  return { pets, counts }
}

/** Changes seen by this cache only: its own writes, and a listener the test turns off and on. */
function localChanges() {
  let listening = true
  let generation = 0
  return {
    get listening() {
      return listening
    },
    get generation() {
      return generation
    },
    changed() {
      generation++
    },
    /** Loses or regains the listener, which moves the generation as TableChanges says. */
    listen(on: boolean) {
      listening = on
      generation++
    },
  }
}

async function cachedMemoryPets(petNames: string[]) {
  const { pets, counts } = memoryPets()
  const changes = localChanges()
  const cached = cacheResource(pets, changes)
  for (const name of petNames) await cached.create(draft(name))
  return { cached, counts, changes }
}

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

it('serves pets once read, and full pages once asked for twice, from memory until a write', async () => {
  const { cached, counts } = await cachedMemoryPets(['a', 'b', 'c'])
  await cached.get(1)
  for (const _ of [1, 2]) {
    await cached.list({ limit: 2 })
    await cached.list({ limit: 2, status: 'available' })
  }
  const reads = counts.reads
  expect((await cached.get(1))?.name).toBe('a')
  expect(names(await cached.list({ limit: 2 }))).toEqual(['a', 'b'])
  expect(names(await cached.list({ limit: 2, status: 'available' }))).toEqual(['a', 'b'])
  expect(counts.reads).toBe(reads)
  await cached.create(draft('d'))
  expect(names(await cached.list({ limit: 2 }))).toEqual(['a', 'b'])
  expect(counts.reads).toBe(reads)
})

it('does not keep a page asked for once, as the pages of a walk are', async () => {
  const { cached, counts } = await cachedMemoryPets(['a', 'b', 'c', 'd', 'e'])
  await cached.list({ limit: 2 })
  await cached.list({ limit: 2, afterId: 2 })
  const reads = counts.reads
  expect(names(await cached.list({ limit: 2, afterId: 2 }))).toEqual(['c', 'd'])
  expect(counts.reads).toBe(reads + 1)
})

it('drops what it holds after any method but get, list and create, whatever its name', async () => {
  const { cached } = await cachedMemoryPets(['a', 'b', 'c'])
  await cached.get(1)
  for (const _ of [1, 2]) await cached.list({ limit: 2 })
  expect(await cached.update(1, renamed('changed'))).toMatchObject({ id: 1, name: 'changed' })
  expect((await cached.get(1))?.name).toBe('changed')
  expect(names(await cached.list({ limit: 2 }))).toEqual(['changed', 'b'])
  expect(await cached.remove(2)).toBe(true)
  expect(await cached.get(2)).toBeUndefined()
  expect(names(await cached.list({ limit: 2 }))).toEqual(['changed', 'c'])
})

it('drops what it holds after a create that changes other resources first', async () => {
  const changes = localChanges()
  const cached = cacheResource(memoryPets().pets, changes)
  const before = changes.generation
  await cached.create(draft('x'))
  expect(changes.generation).toBe(before)
  await cached.create(draft('y'), { within: () => undefined })
  expect(changes.generation).toBe(before + 1)
})

it('caches nothing for a store other instances share, as every store can change resources', async () => {
  const { pets, counts } = memoryPets()
  const cached = cacheResource(pets, localChanges(), { shared: true })
  await cached.create(draft('a'))
  await cached.get(1)
  const reads = counts.reads
  expect((await cached.get(1))?.name).toBe('a')
  expect(counts.reads).toBe(reads + 1)
})

it('drops what it holds after a write that fails, since it may have committed', async () => {
  const { cached } = await cachedMemoryPets(['a', 'b', 'c'])
  await cached.get(1)
  for (const _ of [1, 2]) await cached.list({ limit: 2 })
  await expect(cached.removeAndFail(1)).rejects.toThrow('connection lost')
  expect(await cached.get(1)).toBeUndefined()
  expect(names(await cached.list({ limit: 2 }))).toEqual(['b', 'c'])
})

it('does not keep what a read racing a write returned', async () => {
  const { cached, counts } = await cachedMemoryPets(['a', 'b', 'c'])
  await cached.list({ limit: 2 })
  let release = () => {}
  counts.hold = new Promise((resolve) => {
    release = resolve
  })
  const racing = Promise.all([cached.get(1), cached.list({ limit: 2 })])
  await cached.update(1, renamed('changed'))
  // Reads that start after the write have dropped what was cached before it, not what is late.
  const following = Promise.all([cached.get(2), cached.list({ limit: 1 })])
  release()
  const [pet, page] = await racing
  await following
  expect([pet?.name, names(page)]).toEqual(['a', ['a', 'b']])
  expect((await cached.get(1))?.name).toBe('changed')
  expect(names(await cached.list({ limit: 2 }))).toEqual(['changed', 'b'])
})

it('neither serves nor keeps pets while a write could go unseen', async () => {
  const { cached, counts, changes } = await cachedMemoryPets(['a', 'b', 'c'])
  await cached.get(1)
  changes.listen(false)
  const reads = counts.reads
  for (const _ of [1, 2, 3]) {
    await cached.get(1)
    await cached.get(2)
    await cached.list({ limit: 2 })
  }
  expect(counts.reads).toBe(reads + 9)
  changes.listen(true)
  await cached.get(2)
  expect(counts.reads).toBe(reads + 10)
})

it('on SQLite, drops pets changed by another connection from the next turn on', async () => {
  const path = join(dir, 'external.db')
  const store = openSqliteStore(path)
  for (const name of ['a', 'b', 'c']) await store.pets.create(draft(name))
  await store.pets.get(1)
  for (const _ of [1, 2]) await store.pets.list({ limit: 2 })
  changeNamesBehindTheStore(path)
  await nextTurn()
  expect((await store.pets.get(1))?.name).toBe('changed')
  expect(names(await store.pets.list({ limit: 2 }))).toEqual(['changed', 'changed'])
  await store.close()
})

/** Renames every pet through a connection of its own, as an operator's hand fix would. */
function changeNamesBehindTheStore(path: string) {
  const db = new Database(path)
  db.prepare(`UPDATE pets SET doc = json_set(doc, '$.name', 'changed')`).run()
  db.close()
}
