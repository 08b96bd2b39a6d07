/**
 * The three operations of a collection, for any resource the store keeps (store/resource.ts):
 * a listing by keyset pages with a `Link` to the next one that keeps every filter, a create
 * answered with `Location` and made safe to retry by `Idempotency-Key`, and a read by id. A
 * resource's routes (routes/pets/handlers.ts) are these, bound to its store and paths.
 *
 * Each is typed by its operation where it is used; what the spec says of the operation's
 * responses is what these return: `200` with the page and `Link`, `201` with the created
 * resource, `Location` and (replayed) `Idempotent-Replayed`, `200` or `404`.
 */
import type { FastifyRequest } from 'fastify'
import { problem } from '../errors.js'
import { preSerialized } from '../http/contract.js'
import type { Idempotency } from '../idempotency/idempotency.js'
import { andThen } from '../maybe-promise.js'
import type {
  Draft,
  Identified,
  ListOperationId,
  ListQuery,
  ResourceDefinition,
  ResourceStore,
} from '../store/resource.js'
import type { Store } from '../store/store.js'
import { type CursorCodec, createCursorCodec } from './cursor.js'

/** What every resource's routes are made from (app.ts gives the same to each). */
export interface RouteDeps {
  store: Store
  /** The secret cursors are encrypted under (cursor.ts). */
  cursorSecret: string
  idempotency: Idempotency
  /** e.g. `/v1`: prefix of Location and Link URLs. */
  basePath: string
}

interface CollectionDeps<K extends ListOperationId, R extends Identified> {
  store: ResourceStore<K, R>
  definition: ResourceDefinition<K, R>
  /** Bound to the list operation (cursor.ts). */
  cursors: CursorCodec
  idempotency: Idempotency
  /** The collection's URL path with the base path, e.g. `/v1/pets`: of `Location` and `Link`. */
  url: string
}

/** Where a collection is: its list operation, its path as the spec writes it, its noun. */
export interface CollectionPlace<K extends ListOperationId> {
  list: K
  /** e.g. `/pets`. */
  path: string
  /** What messages call one item, e.g. `pet`. */
  noun: string
}

/** The three operations of the collection at `place`, on `store`. */
export function collection<K extends ListOperationId, R extends Identified>(
  deps: RouteDeps,
  place: CollectionPlace<K>,
  store: ResourceStore<K, R>,
  definition: ResourceDefinition<K, R>,
) {
  const of: CollectionDeps<K, R> = {
    store,
    definition,
    cursors: createCursorCodec(deps.cursorSecret, place.list),
    idempotency: deps.idempotency,
    url: `${deps.basePath}${place.path}`,
  }
  return {
    list: listCollection(of),
    create: createInCollection(of),
    createHooks: deps.idempotency.hooks,
    get: getFromCollection(store, place.noun),
  }
}

interface ListRequest {
  query: { limit: number; cursor?: string | undefined } & Record<string, unknown>
}

/** The listing: a page, and a `next` link carrying `limit`, every filter given, and the cursor. */
function listCollection<K extends ListOperationId, R extends Identified>(
  deps: CollectionDeps<K, R>,
) {
  const { store, cursors, url } = deps
  const filters = Object.keys(deps.definition.filters)
  return ({ query }: ListRequest) => {
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
    return andThen(store.list(asked as ListQuery<K>), (page) => {
      const body = preSerialized<R[]>(page.json)
      if (!page.hasMore || page.lastId === undefined) return { status: 200 as const, body }
      const next = `${url}?${search}&cursor=${cursors.encode(page.lastId)}`
      return { status: 200 as const, body, headers: { Link: `<${next}>; rel="next"` } }
    })
  }
}

interface CreateRequest<R extends Identified> extends FastifyRequest {
  body: Draft<R>
}

/**
 * The create: the validated body (defaults applied) is the draft, whole, so every property the
 * spec declares is stored; answered with the resource and its `Location`. `Idempotency-Key`
 * (idempotency.ts) decides whether it runs, replays or is refused.
 */
function createInCollection<K extends ListOperationId, R extends Identified>(
  deps: CollectionDeps<K, R>,
) {
  const { store, idempotency, url } = deps
  const answer = (created: R) => ({
    status: 201 as const,
    body: created,
    headers: { Location: `${url}/${created.id}` },
  })
  return (request: CreateRequest<R>) =>
    idempotency.create(request, {
      target: url,
      draft: request.body,
      store: (completion) => store.create(request.body, completion),
      answer,
    })
}

/** The read by id; an id no `resource` (its noun, as messages name it) has is `404`. */
function getFromCollection<K extends ListOperationId, R extends Identified>(
  store: ResourceStore<K, R>,
  resource: string,
) {
  return (id: number) =>
    andThen(store.get(id), (found) => {
      if (found !== undefined) return { status: 200 as const, body: found }
      return problem('unknownId', {
        resource,
        id: Number.isSafeInteger(id) ? String(id) : 'with this id',
      })
    })
}
