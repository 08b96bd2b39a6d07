/**
 * Remembers pets and pages of pets. No operation changes or deletes a pet, and ids only grow
 * (PetStore.create), so a pet read once is the same forever, and so is a page that has more
 * matching pets after it: later pets can only come after those. Only the last page of a listing
 * is read each time, since a new pet may join it. Both maps are bounded and start over when
 * full. An operation that changes or deletes pets must drop this cache first.
 *
 * A page is kept only when it is asked for a second time while its key is remembered: a client
 * walking a listing reads each page once, and keeping those pages cost more than it saved (their
 * text outlived the young generation, so every walked page was copied and collected again).
 */
import type { Pet } from '@petstore/types'
import type { ListPetsQuery, PetPage, PetStore } from './store.js'

const maxPets = 10_000
/** Pages are bounded by their JSON's length, not by count: 2,000 pages of 100 pets held 14 MB. */
const maxPageChars = 4 * 1024 * 1024
/** Keys of pages asked for once; far more than the pages a client repeats. */
const maxSeenPages = 4096

export function cachePets(store: PetStore): PetStore {
  const pets = new Map<number, Pet>()
  const pages = new Map<string, PetPage>()
  const seenPages = new Set<string>()
  let pageChars = 0
  return {
    create: (draft, idempotency) => store.create(draft, idempotency),
    async get(id) {
      const cached = pets.get(id)
      if (cached !== undefined) return cached
      const pet = await store.get(id)
      if (pet === undefined) return undefined
      if (pets.size >= maxPets) pets.clear()
      pets.set(id, Object.freeze(pet))
      return pet
    },
    async list(query: ListPetsQuery) {
      const key = `${query.limit} ${query.afterId ?? 0} ${query.status ?? ''}`
      const cached = pages.get(key)
      if (cached !== undefined) return cached
      const page = await store.list(query)
      if (!seenPages.has(key)) {
        if (seenPages.size >= maxSeenPages) seenPages.clear()
        seenPages.add(key)
      } else if (page.hasMore) {
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
}
