/**
 * The storage seam of the service: pets, API keys, idempotency records and settings, implemented
 * on SQLite (sqlite/) and PostgreSQL (postgres/). Every implementation must pass
 * test/store/conformance.ts, which checks the rules written here.
 *
 * Methods return promises, so that a networked store fits the same interface, but for the reads
 * a store may have at hand: a resource's `get` and `list` answer at once where the store reads
 * in this process or remembers the answer (`MaybePromise`: SQLite, a cache hit; `await` reads
 * both), and `keys.cachedActive` never waits. Times are Unix milliseconds unless said
 * otherwise. Ids of pets are positive safe integers.
 */

import type { Pet, Plan } from '@petstore/types'
import type { Draft, ResourceStore } from './resource.js'
import type { ResourceStores } from './resources.js'

/** A NewPet after validation, the spec's defaults applied: every property a Pet has but its id. */
export type PetDraft = Draft<Pet>

/** A draft of the resource the Store holds under `name` (resources.ts). */
export type DraftOf<N extends keyof ResourceStores> =
  ResourceStores[N] extends ResourceStore<infer _K, infer R> ? Draft<R> : never

/** The resources' storage (resource.ts), for pets. */
export type PetStore = ResourceStore<'listPets', Pet>

/**
 * The response an idempotency record replays (idempotency.ts writes and reads it; a store keeps
 * it as JSON text). Records of every version have this shape, so a change to it must still read
 * the records already stored.
 */
export interface StoredResponse {
  /** The status sent, and replayed. */
  status: number
  /** The response body, as sent (JSON text). */
  body: string
  /** Headers to replay, lower-case names (e.g. `location`). */
  headers: Record<string, string>
}

/** An API key as the service knows it: never the raw key, which is stored only as a hash. */
export interface ApiKeyRecord {
  id: string
  name: string | null
  plan: Plan
  /**
   * Requests per minute window, carried only by keys of a per-key plan (`perKeyPlanValues`,
   * enterprise); null for a fixed plan, whose numbers are read from the spec when enforced.
   */
  perMinute: number | null
  /** Requests per day window; null exactly when `perMinute` is. */
  perDay: number | null
  /** ISO 8601 timestamp. */
  createdAt: string
  /** ISO 8601 timestamp, or null while the key is valid. */
  revokedAt: string | null
}

export interface NewApiKey {
  /** sha256 of the raw key, hex. The raw key is never given to the store. */
  hash: string
  name: string | null
  plan: Plan
  /** Set for a per-key plan, null otherwise (see ApiKeyRecord); the store refuses a mix. */
  perMinute: number | null
  perDay: number | null
}

export interface KeyStore {
  /** Stores a key; its id is generated (`key_` + hex) and `createdAt` is now. */
  create(input: NewApiKey): Promise<ApiKeyRecord>
  /**
   * The key whose hash equals `hash`, if it exists and is not revoked; undefined otherwise.
   * Looked up by an index on the hash, so timing does not depend on how much of a guess matches.
   */
  findActiveByHash(hash: string): Promise<ApiKeyRecord | undefined>
  /**
   * The key of `hash` when the store has it at hand (found before, unrevoked as far as the
   * store knows): what findActiveByHash would answer, without waiting. Undefined means "ask
   * findActiveByHash", not "no such key". Every /v1 request asks this first.
   */
  cachedActive?(hash: string): ApiKeyRecord | undefined
  /** Every key, revoked ones included, oldest first. */
  list(): Promise<ApiKeyRecord[]>
  /**
   * Revokes the key (its requests are 401 from then on) and returns it; revoking a revoked key
   * keeps the first `revokedAt`. Undefined when no key has this id.
   */
  revoke(id: string): Promise<ApiKeyRecord | undefined>
  /** How many keys are not revoked. */
  countActive(): Promise<number>
}

/** What `claim` found for an (API key, Idempotency-Key) pair. */
export type IdempotencyClaim =
  /** No live record existed: one is now held for this request, in flight. */
  | { state: 'claimed' }
  /** Another request holds the record and has not finished. */
  | { state: 'in_progress' }
  /** A request with this key finished: compare fingerprints, then replay or refuse. */
  | { state: 'completed'; fingerprint: string; response: StoredResponse }

export interface IdempotencyStore {
  /**
   * Claims `(scope, key)` for a request that is starting. Records live `ttlMs` from their claim
   * (24 h in production); an expired record counts as absent. An in-flight claim older than
   * `staleMs` (its holder crashed) also counts as absent, so a key is never blocked for a day.
   * Atomic: of N concurrent claims on an absent key exactly one gets `claimed`.
   */
  claim(
    scope: string,
    key: string,
    now: number,
    ttlMs: number,
    staleMs: number,
  ): Promise<IdempotencyClaim>
  /** Drops an in-flight claim (the request failed, so a retry may run again). No-op otherwise. */
  release(scope: string, key: string): Promise<void>
  /** Deletes records expired at `now`; returns how many. */
  purgeExpired(now: number): Promise<number>
}

/** The resources' stores (resources.ts: `pets`, ...), then the service's own records. */
export interface Store extends ResourceStores {
  keys: KeyStore
  idempotency: IdempotencyStore
  /**
   * The value of setting `name`; if absent, stores `create()` and returns it. Atomic, so two
   * processes starting at once agree on one value (used for the cursor-signing secret).
   */
  setting(name: string, create: () => string): Promise<string>
  /**
   * Appends every draft to resource `name` in one transaction, each stored as `create` stores
   * it (its document, an id above every one before), and resolves with how many: loading data
   * (`petstore seed`, databases for tests and benchmarks), without what a create does per
   * request (a group commit each, idempotency records, the created resource built). An append,
   * as `create` is, so caches keep what they hold. `drafts` is iterated once, inside the
   * transaction: a generator of a million drafts is never held in memory. All or nothing.
   */
  seed<N extends keyof ResourceStores>(name: N, drafts: Iterable<DraftOf<N>>): Promise<number>
  /**
   * Resolves when the store can serve reads and writes now; rejects with the reason otherwise
   * (readiness: a full disk, a database file deleted or replaced, a database out of reach or
   * read-only), rejecting with BackendUnavailableError. Writes nothing and is cheap: it runs for
   * an unauthenticated caller (`/readyz`, cached there for a second). A fault only a write can
   * show (a disk that filled since) is learnt from the writes: after a write failed for the
   * store's sake, the store stays not ready for `failureHoldMs` (backend-failure.ts).
   */
  ping(): Promise<void>
  /** Closes connections; other calls fail afterwards. Idempotent. */
  close(): Promise<void>
}
