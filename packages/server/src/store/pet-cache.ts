/**
 * Remembers pets and pages of pets until a write changes them. Ids only grow (PetStore.create),
 * so `create` keeps the cache: a page that has more matching pets after it stays the same, since
 * later pets can only come after those. Only the last page of a listing is read each time, since
 * a new pet may join it. Every other method of PetStore may change or remove pets, so it is
 * wrapped, whatever its name, to drop the cache when it settles (succeeded or not: a failure may
 * come after the commit). A write by another instance or process reaches the cache through
 * `changes` (TableChanges), and while such a write could go unseen nothing is served from memory.
 * Both maps are bounded and start over when full.
 *
 * A store that several instances share (PostgreSQL) is cached only while it has no such write
 * method: a notification from another instance's write arrives a little after its commit, and a
 * client told "done" by instance A may already be reading from B. So once PetStore can change a
 * pet, every read on a shared store goes to the database (read-after-write on every instance),
 * and what stays cached there (no write method) is dropped by hand-made SQL changes through the
 * notification.
 *
 * A page is kept only when it is asked for a second time while its key is remembered: a client
 * walking a listing reads each page once, and keeping those pages cost more than it saved (their
 * text outlived the young generation, so every walked page was copied and collected again).
 */
import type { Pet } from '@petstore/types'
import type { TableChanges } from './changes.js'
import type { ListPetsQuery, PetPage, PetStore } from './store.js'

const maxPets = 10_000
/** Pages are bounded by their JSON's length, not by count: 2,000 pages of 100 pets held 14 MB. */
const maxPageChars = 4 * 1024 * 1024
/** Keys of pages asked for once; far more than the pages a client repeats. */
const maxSeenPages = 4096

/** The methods the cache answers (reads) or passes on keeping what it holds (appends). */
const keepingMethods = ['get', 'list', 'create'] as const
type KeepingMethod = (typeof keepingMethods)[number]
/** Every other method of a PetStore: each may change or remove pets, so each drops the cache. */
type PetWrites<S extends PetStore> = Omit<S, KeepingMethod>

export interface PetCacheOptions {
  /** Other instances write to the same data (PostgreSQL): see above. */
  shared?: boolean
}

/**
 * Caches `store`'s reads; `changes` tells of writes made elsewhere and hears of those made here.
 *
 * @example
 * ```ts
 * const pets = cachePets(sqlitePetStore(db, writes), sqliteTableChanges(watchExternalChanges(db)))
 * ```
 */
export function cachePets<S extends PetStore>(
  store: S,
  changes: TableChanges,
  options: PetCacheOptions = {},
): S {
  if (options.shared === true && writeMethodNames(store).length > 0) return store
  const pets = new Map<number, Pet>()
  const pages = new Map<string, PetPage>()
  const seenPages = new Set<string>()
  let pageChars = 0
  let cachedGeneration = changes.generation
  /** The generation a read starts at, after dropping whatever a change made stale. */
  const current = () => {
    const generation = changes.generation
    if (generation !== cachedGeneration) {
      pets.clear()
      pages.clear()
      pageChars = 0
      cachedGeneration = generation
    }
    return generation
  }
  /**
   * Whether a value read since `generation` may be kept: no change can have overtaken it. Losing
   * the listener moves the generation, so what was cached goes, and nothing read until it is back
   * is kept: without a check on the hot path, nothing is served from memory meanwhile.
   */
  const keeps = (generation: number) => changes.listening && changes.generation === generation
  const cached: Pick<PetStore, KeepingMethod> = {
    create: (draft, idempotency) => store.create(draft, idempotency),
    async get(id) {
      const generation = current()
      const hit = pets.get(id)
      if (hit !== undefined) return hit
      const pet = await store.get(id)
      if (pet === undefined || !keeps(generation)) return pet
      if (pets.size >= maxPets) pets.clear()
      pets.set(id, Object.freeze(pet))
      return pet
    },
    async list(query: ListPetsQuery) {
      const generation = current()
      const key = `${query.limit} ${query.afterId ?? 0} ${query.status ?? ''}`
      const hit = pages.get(key)
      if (hit !== undefined) return hit
      const page = await store.list(query)
      if (!seenPages.has(key)) {
        if (seenPages.size >= maxSeenPages) seenPages.clear()
        seenPages.add(key)
      } else if (page.hasMore && keeps(generation)) {
        if (pageChars + page.json.length > maxPageChars) {
          pages.clear()
          pageChars = 0
        }
        pages.set(key, Object.freeze(page))
        pageChars += page.json.length
      }
      return page
    },
  }
  return { ...invalidating(store, () => changes.changed()), ...cached } as S
}

/** `store`'s writes (PetWrites), each calling `changed` once it settles. */
function invalidating<S extends PetStore>(store: S, changed: () => void): PetWrites<S> {
  const writes: Record<string, unknown> = {}
  for (const name of writeMethodNames(store)) {
    const write = Reflect.get(store, name) as (...args: unknown[]) => Promise<unknown>
    writes[name] = async (...args: unknown[]) => {
      try {
        return await write.apply(store, args)
      } finally {
        changed()
      }
    }
  }
  return writes as PetWrites<S>
}

/** The store's methods that may change or remove pets: all but get, list and create. */
function writeMethodNames(store: PetStore): string[] {
  const keeping: readonly string[] = keepingMethods
  return [...methodNames(store)].filter((name) => !keeping.includes(name))
}

/** The names of `object`'s methods, its own and its classes'. */
function methodNames(object: object): Set<string> {
  const names = new Set<string>()
  let level: object | null = object
  while (level !== null && level !== Object.prototype) {
    for (const name of Object.getOwnPropertyNames(level)) {
      const { value } = Object.getOwnPropertyDescriptor(level, name) ?? {}
      if (name !== 'constructor' && typeof value === 'function') names.add(name)
    }
    level = Object.getPrototypeOf(level) as object | null
  }
  return names
}
