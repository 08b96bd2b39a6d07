/**
 * The active API keys a store has found, kept in memory: every /v1 request looks its key up,
 * and keys change rarely. One implementation for every store; what differs (how a write made
 * elsewhere is seen) is the store's `TableChanges` for its key table. Entries are dropped when
 * the table changes (a revocation here, or any write seen from another connection or instance),
 * nothing is served or kept while such a write could go unseen, and unknown hashes are never
 * kept, so guessing cannot fill the map.
 */
import type { TableChanges } from './changes.js'
import type { ApiKeyRecord } from './store.js'

/** Bounds the cache; past it the cache starts over (a deployment has far fewer keys). */
const maxCachedKeys = 10_000

export interface KeyCache {
  /** The key of `hash` if it is cached and nothing changed since (KeyStore.cachedActive). */
  cachedActive(hash: string): ApiKeyRecord | undefined
  /** The cached key of `hash`, else `lookup`'s, kept if no change overtook the lookup. */
  findActive(
    hash: string,
    lookup: (hash: string) => Promise<ApiKeyRecord | undefined> | ApiKeyRecord | undefined,
  ): Promise<ApiKeyRecord | undefined>
}

export function createKeyCache(changes: TableChanges): KeyCache {
  const active = new Map<string, ApiKeyRecord>()
  let cachedGeneration = changes.generation
  const cachedActive = (hash: string) => {
    const generation = changes.generation
    if (generation !== cachedGeneration) {
      active.clear()
      cachedGeneration = generation
    }
    return changes.listening ? active.get(hash) : undefined
  }
  return {
    cachedActive,
    async findActive(hash, lookup) {
      const cached = cachedActive(hash)
      if (cached !== undefined) return cached
      const generation = changes.generation
      const found = await lookup(hash)
      if (found === undefined) return undefined
      const key = Object.isFrozen(found) ? found : Object.freeze(found)
      // Keep only what no change can have overtaken.
      if (changes.listening && changes.generation === generation) {
        if (active.size >= maxCachedKeys) active.clear()
        active.set(hash, key)
      }
      return key
    },
  }
}
