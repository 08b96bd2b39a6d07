/**
 * The operations of a collection, for any resource the store keeps (store/resource.ts): a
 * listing by keyset pages with a `Link` to the next one that keeps every filter, a create
 * answered with `Location` and made safe to retry by `Idempotency-Key`, a read by id, a JSON
 * merge patch and a removal, both conditional on `If-Match`. Every answer with a resource carries
 * its `ETag` (etag.ts). A resource's routes (routes/pets/handlers.ts, routes/orders/handlers.ts)
 * are these, bound to its store and paths, with what is its own (the draft a create stores, the
 * checks of a write) passed in.
 *
 * An owned resource (`ResourceDefinition.owned`) is the caller's: every operation reads and
 * writes only the resources of the caller's API key, and another key's are not found.
 *
 * Each is typed by its operation where it is used; what the spec says of the operation's
 * responses is what these return.
 */
import type { FastifyRequest } from 'fastify'
import { problem } from '../errors.js'
import { preSerialized } from '../http/contract.js'
import type { Idempotency } from '../idempotency/idempotency.js'
import { andThen, type MaybePromise } from '../maybe-promise.js'
import { createAjv } from '../spec/ajv.js'
import type { JsonSchema } from '../spec/document.js'
import { describeAjvError } from '../spec/messages.js'
import { componentSchema } from '../spec/operations.js'
import type {
  CreateOptions,
  Draft,
  Identified,
  ListOperationId,
  ListQuery,
  ResourceDefinition,
  ResourceStore,
  Transaction,
} from '../store/resource.js'
import type { Store } from '../store/store.js'
import { type CursorCodec, createCursorCodec } from './cursor.js'
import { etagOf, preconditionHolds } from './etag.js'
import { mergePatch } from './merge-patch.js'

/** What every resource's routes are made from (app.ts gives the same to each). */
export interface RouteDeps {
  store: Store
  /** The secret cursors are encrypted under (cursor.ts). */
  cursorSecret: string
  idempotency: Idempotency
  /** e.g. `/v1`: prefix of Location and Link URLs. */
  basePath: string
  /** Now, for the times a resource records (an order's `placedAt`). */
  now?: () => number
}

interface CollectionDeps<K extends ListOperationId, R extends Identified> {
  store: ResourceStore<K, R>
  definition: ResourceDefinition<K, R>
  /** Bound to the list operation (cursor.ts). */
  cursors: CursorCodec
  idempotency: Idempotency
  /** The collection's URL path with the base path, e.g. `/v1/pets`: of `Location` and `Link`. */
  url: string
  noun: string
}

/** Where a collection is: its path as the spec writes it, and what messages call one item. */
export interface CollectionPlace {
  /** e.g. `/pets`. */
  path: string
  /** e.g. `pet`. */
  noun: string
}

/** The operations of the collection at `place`, on `store`. */
export function collection<K extends ListOperationId, R extends Identified>(
  deps: RouteDeps,
  place: CollectionPlace,
  store: ResourceStore<K, R>,
  definition: ResourceDefinition<K, R>,
) {
  const of: CollectionDeps<K, R> = {
    store,
    definition,
    cursors: createCursorCodec(deps.cursorSecret, definition.list),
    idempotency: deps.idempotency,
    url: `${deps.basePath}${place.path}`,
    noun: place.noun,
  }
  return {
    list: listCollection(of),
    create: createInCollection(of),
    createHooks: deps.idempotency.hooks,
    get: getFromCollection(of),
    patch: patchInCollection(of),
    remove: removeFromCollection(of),
  }
}

/** What the collection's operations need of a request. */
type CollectionRequest = Pick<FastifyRequest, 'caller' | 'headers'>

/** The owner an owned resource's operations are restricted to: the caller's API key. */
function ownerOf(definition: { owned?: boolean }, request: CollectionRequest): string | undefined {
  if (definition.owned !== true) return undefined
  // Every /v1 operation on a resource requires a key (the spec's security): the route is only
  // reached with one.
  if (request.caller.kind !== 'key') throw new Error('an owned resource needs a key')
  return request.caller.key.id
}

/** The `404` of an id no resource of the collection (of the caller) has. */
function notFound(noun: string, id: number) {
  return problem('unknownId', {
    resource: noun,
    id: Number.isSafeInteger(id) ? String(id) : 'with this id',
  })
}

/** The answer with a resource: its body and its `ETag`. */
function withTag<R extends Identified>(resource: R) {
  return { status: 200 as const, body: resource, headers: { ETag: etagOf(resource) } }
}

interface ListRequest extends CollectionRequest {
  query: { limit: number; cursor?: string | undefined } & Record<string, unknown>
}

/** The listing: a page, and a `next` link carrying `limit`, every filter given, and the cursor. */
function listCollection<K extends ListOperationId, R extends Identified>(
  deps: CollectionDeps<K, R>,
) {
  const { store, cursors, url, definition } = deps
  const filters = Object.keys(definition.filters)
  return (request: ListRequest) => {
    const { query } = request
    let afterId: number | undefined
    if (query.cursor !== undefined) {
      afterId = cursors.decode(query.cursor)
      if (afterId === undefined) return problem('invalidCursor')
    }
    // Built in a fixed order, so that the page cache's key (cache.ts) is too.
    const asked: Record<string, unknown> = { limit: query.limit, afterId }
    let search = `limit=${query.limit}`
    for (const name of filters) {
      const value = query[name]
      if (value === undefined) continue
      asked[name] = value
      search += `&${name}=${encodeURIComponent(String(value))}`
    }
    asked.owner = ownerOf(definition, request)
    return andThen(store.list(asked as ListQuery<K>), (page) => {
      const body = preSerialized<R[]>(page.json)
      if (!page.hasMore || page.lastId === undefined) return { status: 200 as const, body }
      const next = `${url}?${search}&cursor=${cursors.encode(page.lastId)}`
      return { status: 200 as const, body, headers: { Link: `<${next}>; rel="next"` } }
    })
  }
}

interface CreateRequest extends FastifyRequest {
  body: object
}

/** What a resource adds to a create: the draft stored for a body, and a first step. */
export interface CreateRules<R extends Identified> {
  /** The draft stored for the request's validated body (default: the body itself). */
  draft?: (body: never) => Draft<R>
  /** Runs first in the creating transaction (an order takes its pet). */
  within?: (body: never) => CreateOptions<R>['within']
}

/**
 * The create: the validated body (defaults applied) is the draft, whole, so every property the
 * spec declares is stored, unless the resource derives it (`rules.draft`); answered with the
 * resource, its `Location` and `ETag`. `Idempotency-Key` (idempotency.ts) decides whether it
 * runs, replays or is refused.
 */
function createInCollection<K extends ListOperationId, R extends Identified>(
  deps: CollectionDeps<K, R>,
) {
  const { store, idempotency, url, definition } = deps
  const answer = (created: R) => ({
    status: 201 as const,
    body: created,
    headers: { Location: `${url}/${created.id}`, ETag: etagOf(created) },
  })
  return (request: CreateRequest, rules: CreateRules<R> = {}) => {
    const body = request.body as never
    const draft = rules.draft?.(body) ?? (body as Draft<R>)
    const owner = ownerOf(definition, request)
    const within = rules.within?.(body)
    return idempotency.create(request, {
      target: url,
      draft: request.body,
      store: (completion) => store.create(draft, { idempotency: completion, owner, within }),
      answer,
    })
  }
}

/** The read by id; an id no resource (of the caller) has is `404`. */
function getFromCollection<K extends ListOperationId, R extends Identified>(
  deps: CollectionDeps<K, R>,
) {
  const { store, definition, noun } = deps
  return (id: number, request: CollectionRequest) =>
    andThen(store.get(id, ownerOf(definition, request)), (found) =>
      found === undefined ? notFound(noun, id) : withTag(found),
    )
}

/**
 * What a resource checks of a change before it is stored, in its transaction: the resource as it
 * is, the patch asked, and what the change would make of it. It throws to refuse the change, or
 * returns the draft to store (the next state with whatever the resource records itself, such as
 * an order's `updatedAt`), after changing other resources through the transaction if it must.
 */
export type PatchRule<R extends Identified> = (
  current: R,
  patch: Record<string, unknown>,
  next: Draft<R>,
  transaction: Transaction,
) => MaybePromise<Draft<R>>

interface WriteRequest extends CollectionRequest {
  headers: FastifyRequest['headers']
}

/** A resource's schema without its `id`: what a stored document (a draft) must match. */
function withoutId(schema: JsonSchema): JsonSchema {
  const { id: _, ...properties } = (schema.properties ?? {}) as Record<string, JsonSchema>
  const required = ((schema.required ?? []) as string[]).filter((name) => name !== 'id')
  return { ...schema, properties, required }
}

/** `412` unless the request's `If-Match` holds for `current` (etag.ts). */
function checkPrecondition(request: WriteRequest, current: Identified, noun: string): void {
  const ifMatch = request.headers['if-match']
  if (!preconditionHolds(ifMatch, etagOf(current))) {
    throw problem('preconditionFailed', { resource: `${noun} ${current.id}` })
  }
}

/**
 * The JSON merge patch (RFC 7396) of a resource, in one transaction: `If-Match` checked on the
 * resource as it is, the patch applied, the result held to the resource's schema (a patch may
 * not leave it invalid: `400`), then the resource's own `rule`; answered with the resource as
 * stored and its new `ETag`.
 */
function patchInCollection<K extends ListOperationId, R extends Identified>(
  deps: CollectionDeps<K, R>,
) {
  const { store, definition, noun } = deps
  const valid = createAjv().compile(withoutId(componentSchema(definition.schema)))
  return (
    request: WriteRequest & { body: unknown },
    id: number,
    rule: PatchRule<R> = (_current, _patch, next) => next,
  ) =>
    store
      .update(
        id,
        (current, transaction) => {
          checkPrecondition(request, current, noun)
          const { id: _id, ...document } = current
          const next = mergePatch(document, request.body) as Draft<R>
          if (!valid(next)) {
            const [first] = valid.errors ?? []
            const detail = first ? describeAjvError(noun, first) : `${noun} is not valid`
            throw problem('invalidInput', { detail: `the patch would leave the ${detail}` })
          }
          return rule(current, request.body as Record<string, unknown>, next, transaction)
        },
        ownerOf(definition, request),
      )
      .then((changed) => (changed === undefined ? notFound(noun, id) : withTag(changed)))
}

/**
 * The removal of a resource, in one transaction: `If-Match` checked on the resource as it is,
 * then the resource's own `check`; answered `204`.
 */
function removeFromCollection<K extends ListOperationId, R extends Identified>(
  deps: CollectionDeps<K, R>,
) {
  const { store, definition, noun } = deps
  return (
    request: WriteRequest,
    id: number,
    check: (current: R, transaction: Transaction) => MaybePromise<void> = () => {},
  ) =>
    store
      .remove(
        id,
        (current, transaction) => {
          checkPrecondition(request, current, noun)
          return check(current, transaction)
        },
        ownerOf(definition, request),
      )
      .then((removed) => (removed ? { status: 204 as const, body: undefined } : notFound(noun, id)))
}
