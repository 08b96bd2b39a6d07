/**
 * The storage seam of the service: pets, API keys, idempotency records and settings, implemented
 * on SQLite (sqlite/) and PostgreSQL (postgres/). Every implementation must pass
 * test/store/conformance.ts, which checks the rules written here.
 *
 * All methods are async so that a networked store fits the same interface. Times are Unix
 * milliseconds unless said otherwise. Ids of pets are positive safe integers.
 */

import type { NewPet, Pet, PetStatus, Plan } from '@petstore/types'

/** A NewPet after validation: `status` is always present (the spec's default applied). */
export type PetDraft = Required<NewPet>

/**
 * A page of pets, already in the form the service sends it: listPets answers with `json` as its
 * body, byte for byte, without parsing or serializing it again (building row objects and
 * stringifying them cost more than the rest of a cold page).
 */
export interface PetPage {
  /**
   * At most `limit` pets, `id` ascending, as compact JSON text, exactly what `JSON.stringify`
   * makes of the array of Pets with their keys in the order `id`, `name`, `categoryId`,
   * `status`: no whitespace, integers as digits, strings escaped only where JSON requires it
   * (`"`, `\`, U+0000 to U+001F, with `\b \f \n \r \t` short forms and `\u00xx` lower-case
   * otherwise); U+2028, emoji and every other character as UTF-8. `[]` when no pet matches.
   * SQLite builds it with `json_group_array(json_object(...))`. PostgreSQL's `json_agg` and
   * `json_build_object` put spaces after `:` and `,`, so the PostgreSQL store concatenates the
   * text instead, with `to_json` escaping the strings as above (`postgres/pets.ts`).
   */
  json: string
  /** The `id` of the last pet in `json` (the next page starts after it); undefined when empty. */
  lastId: number | undefined
  /** True when at least one more matching pet has a larger id than `lastId`. */
  hasMore: boolean
}

export interface ListPetsQuery {
  /** 1..100. */
  limit: number
  /** Only pets with this status; all when undefined. */
  status?: PetStatus
  /** Keyset pagination: only pets with `id` strictly greater than this. */
  afterId?: number
}

/** The response an idempotency record replays. */
export interface StoredResponse {
  status: number
  /** The response body, as sent (JSON text). */
  body: string
  /** Headers to replay, lower-case names (e.g. `location`). */
  headers: Record<string, string>
}

/** Ties a creation to an idempotency record so both are written in one transaction. */
export interface IdempotencyCompletion {
  scope: string
  key: string
  /** Fingerprint of the request body (see IdempotencyStore.claim). */
  fingerprint: string
  /** Builds the response to store from the created pet. */
  respond: (pet: Pet) => StoredResponse
}

/**
 * What a cache of pets (pet-cache.ts, in front of every store) may assume: ids only grow and are
 * never reused, and `create` only appends, so what was read before a create is still right after
 * it (a page that has more pets after it stays the same). Every other method, the ones that exist
 * and any added later (an update, a delete), may change or remove pets, so each invalidates the
 * caches of every instance: pet-cache.ts wraps whatever is not `get`, `list` or `create` to drop
 * its own cache when the write settles, and the others learn of it from the database. On
 * PostgreSQL a trigger on `pets` sends a NOTIFY at the commit of every UPDATE, DELETE or TRUNCATE
 * (postgres/table-changes.ts); on SQLite, single-instance, a commit by another process moves
 * `PRAGMA data_version` (sqlite/external-changes.ts). So a new write method needs no cache code,
 * and a write made outside the service (SQL by hand) is seen as well. A notification reaches the
 * other instances a little after the commit, so a store shared by instances (PostgreSQL) caches
 * no pets at all once PetStore has a write method: a read on any instance after a write has been
 * acknowledged returns what it wrote.
 */
export interface PetStore {
  /**
   * Creates a pet and returns it with its new id. Ids are assigned in increasing order and
   * never reused, so a pet created after a page was read has a larger id than every pet on it.
   * When the promise resolves, the pet is durable (survives a crash of the process).
   * With `idempotency`, the record `(scope, key)` is completed with `respond(pet)` in the same
   * transaction: either both are written or neither.
   */
  create(draft: PetDraft, idempotency?: IdempotencyCompletion): Promise<Pet>
  /** The pet with this id, or undefined. Ids that are not positive safe integers find nothing. */
  get(id: number): Promise<Pet | undefined>
  /** A page of pets ordered by id ascending (keyset on id, never OFFSET). */
  list(query: ListPetsQuery): Promise<PetPage>
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

export interface Store {
  pets: PetStore
  keys: KeyStore
  idempotency: IdempotencyStore
  /**
   * The value of setting `name`; if absent, stores `create()` and returns it. Atomic, so two
   * processes starting at once agree on one value (used for the cursor-signing secret).
   */
  setting(name: string, create: () => string): Promise<string>
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
