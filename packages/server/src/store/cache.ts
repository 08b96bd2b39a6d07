/**
 * Remembers resources and pages of them until a write changes them. Ids only grow
 * (ResourceStore.create), so a plain `create` keeps the cache: a page that has more matching
 * resources after it stays the same, since later ones can only come after those. Only the last
 * page of a listing is read each time, since a new one may join it. Every other write (`update`,
 * `remove`, any method a store adds, and a create that changes other resources first: `within`)
 * may change or remove resources, of this resource or of others, so it drops `changes` when it
 * settles (succeeded or not: a failure may come after the commit); a store gives all its
 * resources' caches the same `changes` for that reason. A write by another instance or process
 * reaches the cache through `changes` (TableChanges), and while such a write could go unseen
 * nothing is served from memory. Both maps are bounded and start over when full.
 *
 * A store that several instances share (PostgreSQL) is not cached: a notification from another
 * instance's write arrives a little after its commit, and a client told "done" by instance A may
 * already be reading from B. So every read on a shared store goes to the database
 * (read-after-write on every instance).
 *
 * A page is kept only when it is asked for a second time while its key is remembered: a client
 * walking a listing reads each page once, and keeping those pages cost more than it saved (their
 * text outlived the young generation, so every walked page was copied and collected again).
 */
import { andThen } from '../maybe-promise.js'
import type { TableChanges } from './changes.js'
import type { Identified, ListOperationId, ListQuery, Page, ResourceStore } from './resource.js'

const maxItems = 10_000
/** Pages are bounded by their JSON's length, not by count: 2,000 pages of 100 pets held 14 MB. */
const maxPageChars = 4 * 1024 * 1024
/** Keys of pages asked for once; far more than the pages a client repeats. */
const maxSeenPages = 4096

/** The methods the cache answers (reads) or passes on keeping what it holds (appends). */
const keepingMethods = ['get', 'list', 'create'] as const
type KeepingMethod = (typeof keepingMethods)[number]
type AnyResourceStore = ResourceStore<ListOperationId, Identified>
/** Every other method of a store: each may change or remove resources, so each drops the cache. */
type Writes<S extends AnyResourceStore> = Omit<S, KeepingMethod>

/**
 * The cache key of a listing: every property of the query with its value, so that a filter the
 * spec adds separates pages by itself. Each value is written with its length, so no value can
 * read as two properties. Queries built in another property order only miss the cache.
 */
function pageKey(query: Readonly<Record<string, unknown>>): string {
  let key = ''
  for (const name in query) {
    const value = query[name]
    if (value === undefined) continue
    const text = String(value)
    key += `${name}:${text.length}:${text};`
  }
  return key
}

export interface ResourceCacheOptions {
  /** Other instances write to the same data (PostgreSQL): see above. */
  shared?: boolean
}

/**
 * Caches `store`'s reads; `changes` tells of writes made elsewhere and hears of those made here.
 *
 * @example
 * ```ts
 * const changes = sqliteTableChanges(watchExternalChanges(db))
 * const store = cacheResource(sqliteResourceStore(db, writes, pets), changes)
 * ```
 */
export function cacheResource<S extends AnyResourceStore>(
  store: S,
  changes: TableChanges,
  options: ResourceCacheOptions = {},
): S {
  if (options.shared === true) return store
  type R = Awaited<ReturnType<S['get']>> & Identified
  /** By id, or by owner and id for an owned resource: another owner's read never hits. */
  const items = new Map<number | string, R>()
  const pages = new Map<string, Page>()
  const seenPages = new Set<string>()
  let pageChars = 0
  let cachedGeneration = changes.generation
  /** The generation a read starts at, after dropping whatever a change made stale. */
  const current = () => {
    const generation = changes.generation
    if (generation !== cachedGeneration) {
      items.clear()
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
  const cached: Pick<AnyResourceStore, KeepingMethod> = {
    // A plain create only appends; one that does more first (`within`) may change anything.
    create: (draft, options) =>
      options?.within === undefined
        ? store.create(draft, options)
        : settled(store.create(draft, options), () => changes.changed()),
    // A hit answers at once, and so does a miss on a store that reads at once (resource.ts).
    get(id, owner) {
      const generation = current()
      const key = owner === undefined ? id : `${owner} ${id}`
      const hit = items.get(key)
      if (hit !== undefined) return hit
      return andThen(store.get(id, owner), (item) => {
        if (item === undefined || !keeps(generation)) return item
        if (items.size >= maxItems) items.clear()
        items.set(key, Object.freeze(item) as R)
        return item
      })
    },
    list(query: ListQuery<ListOperationId>) {
      const generation = current()
      const key = pageKey(query)
      const hit = pages.get(key)
      if (hit !== undefined) return hit
      return andThen(store.list(query), (page) => {
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
      })
    },
  }
  return { ...invalidating(store, () => changes.changed()), ...cached } as S
}

/** `write`, calling `changed` once it settles, succeeded or not (a failure may follow a commit). */
async function settled<T>(write: Promise<T>, changed: () => void): Promise<T> {
  try {
    return await write
  } finally {
    changed()
  }
}

/** `store`'s writes (Writes), each calling `changed` once it settles. */
function invalidating<S extends AnyResourceStore>(store: S, changed: () => void): Writes<S> {
  const writes: Record<string, unknown> = {}
  for (const name of writeMethodNames(store)) {
    const write = Reflect.get(store, name) as (...args: unknown[]) => Promise<unknown>
    writes[name] = (...args: unknown[]) => settled(write.apply(store, args), changed)
  }
  return writes as Writes<S>
}

/** The store's methods that may change or remove resources: all but get, list and create. */
function writeMethodNames(store: AnyResourceStore): string[] {
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
