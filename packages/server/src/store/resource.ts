/**
 * A resource as the store keeps it: a collection the spec lists, creates and reads by id (pets,
 * and any other collection the spec adds). Every resource is stored the same way (documents.ts):
 * its `id` in a column and all its other properties as one JSON document, so a property the spec
 * adds is stored and returned with no code edit, and nothing the server validated is dropped.
 * What the store must know of a resource is only what it filters on: `ResourceDefinition`, whose
 * `filters` the compiler holds to the list operation's query parameters.
 */
import type { OperationId, operations } from '@petstore/types'
import type { MaybePromise } from '../maybe-promise.js'
import type { StoredResponse } from './store.js'

/** An object the store assigns an `id` to: positive safe integers, increasing, never reused. */
export interface Identified {
  id: number
}

/** What a create stores: the resource without its id, its defaults applied by validation. */
export type Draft<R extends Identified> = Omit<R, 'id'>

/**
 * A page of a listing, already in the form the service sends it: the list operation answers with
 * `json` as its body, byte for byte, without parsing or serializing it again (building objects
 * and stringifying them cost more than the rest of a cold page).
 */
export interface Page {
  /**
   * At most `limit` resources, `id` ascending, as compact JSON text: each one `{"id":N,` followed
   * by its stored document's members (documents.ts), exactly what `JSON.stringify` makes of the
   * array; `[]` when none matches.
   */
  json: string
  /** The `id` of the last resource in `json` (the next page starts after it); undefined when empty. */
  lastId: number | undefined
  /** True when at least one more matching resource has a larger id than `lastId`. */
  hasMore: boolean
}

/** The operations of the spec that take a `cursor` query parameter: the paginated listings. */
export type ListOperationId = {
  [K in OperationId]: [NonNullable<operations[K]['parameters']['query']>] extends [never]
    ? never
    : 'cursor' extends keyof NonNullable<operations[K]['parameters']['query']>
      ? K
      : never
}[OperationId]

/** A list operation's query parameters as the client sends them. */
type QueryOf<K extends ListOperationId> = NonNullable<operations[K]['parameters']['query']>

/** The query parameters of a listing that restrict which resources it returns. */
export type ListFilters<K extends ListOperationId> = Omit<QueryOf<K>, 'limit' | 'cursor'>

/**
 * A listing's query as the store takes it: every filter of the operation, the page size, and the
 * id the page starts after (what the cursor stood for). Built from the operation's own query
 * type, so a parameter the spec adds reaches the store's query and its page cache's key.
 */
export type ListQuery<K extends ListOperationId> = ListFilters<K> & {
  /** 1..100. */
  limit: number
  /** Keyset pagination: only resources with `id` strictly greater than this. */
  afterId?: number | undefined
}

/**
 * How a filter restricts a listing: `equals` keeps the resources whose `field` equals the
 * parameter's value, `prefix` those whose `field` (a string) starts with it.
 */
export interface FilterRule<R> {
  field: Exclude<keyof R, 'id'> & string
  match: 'equals' | 'prefix'
}

/**
 * One rule for each filter parameter of the list operation: a query parameter the spec adds is
 * a compile error here until it says what it filters, so a filter is never ignored.
 */
export type FilterRules<K extends ListOperationId, R> = {
  readonly [P in keyof ListFilters<K>]-?: FilterRule<R>
}

/** A resource's storage: its table and how its listing filters. */
export interface ResourceDefinition<K extends ListOperationId, R extends Identified> {
  /** The table of documents (created by a migration: `resourceTable` in migrations.ts). */
  table: string
  /** The `components/schemas` entry of the resource, whose property order documents keep. */
  schema: string
  filters: FilterRules<K, R>
  /** Never set: carries the resource's type to what is inferred from the definition. */
  readonly resource?: R
}

/**
 * A resource's definition, typed by its list operation and the type of the resource.
 *
 * @example
 * ```ts
 * const orders = defineResource<'listOrders', Order>({
 *   table: 'orders',
 *   schema: 'Order',
 *   filters: { status: { field: 'status', match: 'equals' } },
 * })
 * ```
 */
export function defineResource<K extends ListOperationId, R extends Identified>(
  definition: ResourceDefinition<K, R>,
): ResourceDefinition<K, R> {
  return definition
}

/** A resource as a listing sees it: its table, and a rule for each of its filters. */
export interface ListedResource<K extends ListOperationId> {
  table: string
  schema: string
  filters: {
    readonly [P in keyof ListFilters<K>]-?: { field: string; match: FilterRule<unknown>['match'] }
  }
}

/** Ties a creation to an idempotency record so both are written in one transaction. */
export interface IdempotencyCompletion<R extends Identified = Identified> {
  scope: string
  key: string
  /** Fingerprint of the request body (see IdempotencyStore.claim). */
  fingerprint: string
  /** Builds the response to store from the created resource. */
  respond: (created: R) => StoredResponse
}

/**
 * What a cache of a resource (cache.ts, in front of every store) may assume: ids only grow and
 * are never reused, and `create` only appends, so what was read before a create is still right
 * after it (a page that has more resources after it stays the same). Every other method, any
 * added later (an update, a delete), may change or remove resources, so each invalidates the
 * caches of every instance: cache.ts wraps whatever is not `get`, `list` or `create` to drop its
 * own cache when the write settles, and the others learn of it from the database (PostgreSQL's
 * triggers, SQLite's `PRAGMA data_version`). So a new write method needs no cache code.
 */
export interface ResourceStore<K extends ListOperationId, R extends Identified> {
  /**
   * Stores a resource and returns it with its new id. Ids are assigned in increasing order and
   * never reused, so one created after a page was read has a larger id than every one on it.
   * When the promise resolves, the resource is durable (survives a crash of the process). With
   * `idempotency`, the record `(scope, key)` is completed with `respond(created)` in the same
   * transaction: either both are written or neither. Every property of `draft` is stored.
   */
  create(draft: Draft<R>, idempotency?: IdempotencyCompletion<R>): Promise<R>
  /**
   * The resource with this id, or undefined. Ids that are not positive safe integers find
   * nothing. A store that reads in this process (SQLite, a cache's hit) answers at once.
   */
  get(id: number): MaybePromise<R | undefined>
  /**
   * A page ordered by id ascending (keyset on id, never OFFSET), restricted by every filter;
   * at once where `get` is.
   */
  list(query: ListQuery<K>): MaybePromise<Page>
}
