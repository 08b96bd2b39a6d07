/**
 * A resource as the store keeps it: a collection the spec lists, creates, reads, updates and
 * removes by id (pets, orders,
 * and any collection the spec adds). Every resource is stored the same way (documents.ts):
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
  /** Of an owned resource (`ResourceDefinition.owned`), only the resources of this owner. */
  owner?: string | undefined
}

type Scalar = string | number | boolean

/**
 * The paths of `R`'s scalar properties, a nested one written with dots (`medical.vaccinated`):
 * what a filter can read from a stored document.
 */
export type FieldPath<R> = {
  [P in keyof R & string]-?: NonNullable<R[P]> extends Scalar
    ? P
    : NonNullable<R[P]> extends readonly unknown[]
      ? never
      : NonNullable<R[P]> extends object
        ? `${P}.${FieldPath<NonNullable<R[P]>>}`
        : never
}[keyof R & string]

/**
 * How a filter restricts a listing: `equals` keeps the resources whose `field` equals the
 * parameter's value, `prefix` those whose `field` (a string) starts with it. `field` is a
 * property of the resource or a nested one (`medical.vaccinated`).
 */
export interface FilterRule<R> {
  field: Exclude<FieldPath<R>, 'id'>
  match: 'equals' | 'prefix'
}

/**
 * One rule for each filter parameter of the list operation: a query parameter the spec adds is
 * a compile error here until it says what it filters, so a filter is never ignored.
 */
export type FilterRules<K extends ListOperationId, R> = {
  readonly [P in keyof ListFilters<K>]-?: FilterRule<R>
}

/** What a store needs to know of a resource's table to read and write its rows. */
export interface ResourceTable {
  table: string
  /** The `components/schemas` entry of the resource, whose property order documents keep. */
  schema: string
  owned?: boolean
}

/** A resource's storage: its listing, its table and how its listing filters. */
export interface ResourceDefinition<K extends ListOperationId, R extends Identified> {
  /** The operation that lists it. */
  list: K
  /** The table of documents (created by a migration: `resourceTable` in migrations.ts). */
  table: string
  /** The `components/schemas` entry of the resource, whose property order documents keep. */
  schema: string
  filters: FilterRules<K, R>
  /**
   * Each resource belongs to an owner (an API key's id, kept beside its document, never in it),
   * and every read, listing and write is of one owner's resources: another's are not found.
   */
  owned?: boolean
  /** Never set: carries the resource's type to what is inferred from the definition. */
  readonly resource?: R
}

/**
 * A resource's definition, typed by its list operation and the type of the resource.
 *
 * @example
 * ```ts
 * const orders = defineResource<'listOrders', Order>({
 *   list: 'listOrders',
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
  list: K
  table: string
  schema: string
  filters: {
    readonly [P in keyof ListFilters<K>]-?: { field: string; match: FilterRule<unknown>['match'] }
  }
  owned?: boolean
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

/** What a create stores besides the draft, and what it does in the same transaction. */
export interface CreateOptions<R extends Identified = Identified> {
  /** The idempotency record to complete with the created resource, in the same transaction. */
  idempotency?: IdempotencyCompletion<R> | undefined
  /** The owner of an owned resource (`ResourceDefinition.owned`). */
  owner?: string | undefined
  /**
   * Runs first in the creating transaction, on other resources (an order takes its pet); what
   * it throws refuses the create, with nothing written.
   */
  within?: ((transaction: Transaction) => MaybePromise<void>) | undefined
}

/**
 * One transaction of a store, handed to the steps of a write (`update`, `remove`, a create's
 * `within`), so that a write to one resource and what it implies for others commit together or
 * not at all. Every method answers at once on SQLite (the whole write runs inside its group
 * commit) and later on PostgreSQL (on one connection, between BEGIN and COMMIT); write a step
 * with `andThen` (maybe-promise.ts) so that it runs on both. `read` locks the row it reads until
 * the transaction ends (PostgreSQL's `FOR UPDATE`), so two writes of one resource take turns.
 */
export interface Transaction {
  /** The resource with this id (of `owner`, for an owned resource), or undefined. */
  read<K extends ListOperationId, R extends Identified>(
    resource: ResourceDefinition<K, R>,
    id: number,
    owner?: string,
  ): MaybePromise<R | undefined>
  /** Stores `changed` as the resource with its id (which exists: it was `read`). */
  replace<K extends ListOperationId, R extends Identified>(
    resource: ResourceDefinition<K, R>,
    changed: R,
  ): MaybePromise<void>
  /** Removes the resource with this id; its id is never given again. */
  remove(resource: ResourceTable, id: number): MaybePromise<void>
  /** Whether any resource has, at each path of `where`, one of the values given for it. */
  exists<K extends ListOperationId, R extends Identified>(
    resource: ResourceDefinition<K, R>,
    where: { readonly [P in FieldPath<R>]?: readonly Scalar[] },
  ): MaybePromise<boolean>
}

/**
 * A change of a resource, run in its transaction on the resource as it is now: its next state
 * (its properties but `id`), or a throw that refuses the change with nothing written. It may
 * change other resources through the transaction.
 */
export type Change<R extends Identified> = (
  current: R,
  transaction: Transaction,
) => MaybePromise<Draft<R>>

/**
 * What a removal checks first, in its transaction, on the resource as it is now: a throw refuses
 * it with nothing removed.
 */
export type RemovalCheck<R extends Identified> = (
  current: R,
  transaction: Transaction,
) => MaybePromise<void>

/**
 * What a cache of a resource (cache.ts, in front of every store) may assume: ids only grow and
 * are never reused, and a plain `create` only appends, so what was read before it is still right
 * after it. `update`, `remove` and a create with `within` may change or remove resources, this
 * one's or others': each drops the caches of the store once it settles (cache.ts), and the other
 * instances' stores learn of it from the database (PostgreSQL's triggers, SQLite's
 * `PRAGMA data_version`), or do not cache at all (cache.ts, `shared`).
 */
export interface ResourceStore<K extends ListOperationId, R extends Identified> {
  /**
   * Stores a resource and returns it with its new id. Ids are assigned in increasing order and
   * never reused, so one created after a page was read has a larger id than every one on it.
   * When the promise resolves, the resource is durable (survives a crash of the process). With
   * `idempotency`, the record is completed with `respond(created)` in the same transaction, and
   * `within` runs first in it: either all of it is written or nothing. Every property of `draft`
   * is stored.
   */
  create(draft: Draft<R>, options?: CreateOptions<R>): Promise<R>
  /**
   * The resource with this id (of `owner`, for an owned resource), or undefined. Ids that are
   * not positive safe integers find nothing. A store that reads in this process (SQLite, a
   * cache's hit) answers at once.
   */
  get(id: number, owner?: string): MaybePromise<R | undefined>
  /**
   * A page ordered by id ascending (keyset on id, never OFFSET), restricted by every filter
   * (and to `owner`'s resources, for an owned resource); at once where `get` is.
   */
  list(query: ListQuery<K>): MaybePromise<Page>
  /**
   * Replaces the resource with what `change` makes of it, in one transaction, and returns it;
   * undefined when there is no such resource (of `owner`). Durable when it resolves.
   */
  update(id: number, change: Change<R>, owner?: string): Promise<R | undefined>
  /**
   * Removes the resource once `check` passes, in one transaction: true when it was removed,
   * false when there was none (of `owner`). Its id is never given to another.
   */
  remove(id: number, check?: RemovalCheck<R>, owner?: string): Promise<boolean>
}
