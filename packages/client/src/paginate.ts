import type { OperationFacts, OperationId, operations, paths } from '@petstore/types'
import { operationIds } from '@petstore/types'
import type { Client } from 'openapi-fetch'
import { PetstoreError } from './errors.js'
import { nextPage } from './http/link.js'

/** Whether some header of `Headers` is a `Link` declaring the `next` relation. */
type DeclaresNext<Headers> = true extends {
  [Name in keyof Headers]: Lowercase<Name & string> extends 'link'
    ? Headers[Name] extends { rel: infer Rel }
      ? 'next' extends Rel
        ? true
        : never
      : never
    : never
}[keyof Headers]
  ? true
  : false

/**
 * The operations {@link paginate} walks: a GET whose `200` response declares a `Link` header
 * with `rel="next"` in the spec. A list operation added to the spec joins them by itself.
 */
export type ListOperationId = {
  [Op in OperationId]: OperationFacts[Op] extends {
    method: 'get'
    successHeaders: { 200: infer Headers }
  }
    ? DeclaresNext<Headers> extends true
      ? Op
      : never
    : never
}[OperationId]

type Parameters<Op extends ListOperationId> = operations[Op]['parameters']
/** The operation's query; `cursor` comes from the `next` link, never from the caller. */
type Query<Op extends ListOperationId> = Omit<NonNullable<Parameters<Op>['query']>, 'cursor'>
type PathParams<Op extends ListOperationId> = NonNullable<Parameters<Op>['path']>

/** One item of the operation's `200` body (an array). */
export type ListItem<Op extends ListOperationId> = operations[Op]['responses'][200] extends {
  content: { 'application/json': readonly (infer Item)[] }
}
  ? Item
  : never

/**
 * What {@link paginate} takes for `Op`: its query parameters but `cursor` (filters, `limit`),
 * `path` when its path has parameters, and a `signal` that cancels the walk.
 */
export type PaginateOptions<Op extends ListOperationId> = Query<Op> & {
  signal?: AbortSignal
} & ([PathParams<Op>] extends [never] ? { path?: never } : { path: PathParams<Op> })

/** One page of a list operation with the response that carried it. */
export interface Page<Op extends ListOperationId> {
  items: ListItem<Op>[]
  response: Response
  /** The `next` link's URL; absent on the last page. */
  next: string | undefined
}

/** Options are optional unless the operation's path needs parameters. */
type OptionsParam<Op extends ListOperationId> = [PathParams<Op>] extends [never]
  ? [options?: PaginateOptions<Op>]
  : [options: PaginateOptions<Op>]

/** The spec's path template of a GET operation, from the generated `METHOD path` table. */
function pathOf(operation: string): string {
  for (const [route, id] of Object.entries(operationIds)) {
    if (id === operation && route.startsWith('GET ')) return route.slice('GET '.length)
  }
  throw new TypeError(`paginate: ${operation} is not a GET operation of the spec`)
}

/** The GET of openapi-fetch, loosened: the path is only known at run time here. */
type LooseGet = (
  path: string,
  init: { params: { path?: unknown; query: unknown }; signal: AbortSignal | undefined },
) => Promise<{ data?: unknown; error?: unknown; response: Response }>

/**
 * Every page of a list operation, following `Link: <…>; rel="next"` until it is absent. An error
 * response is thrown as a {@link PetstoreError}.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8288
 * @example
 * ```ts
 * for await (const page of paginatePages(client, 'listPets', { limit: 100 })) {
 *   console.log(page.items.length, page.response.headers.get('X-RateLimit-Remaining'))
 * }
 * ```
 */
export async function* paginatePages<Op extends ListOperationId>(
  client: Client<paths>,
  operation: Op,
  ...[options]: OptionsParam<Op>
): AsyncGenerator<Page<Op>, void, undefined> {
  const { signal, path, ...filters } = (options ?? {}) as PaginateOptions<Op>
  const get = client.GET as unknown as LooseGet
  const template = pathOf(operation)
  let query: unknown = filters
  for (;;) {
    const { data, error, response } = await get(template, { params: { path, query }, signal })
    if (data === undefined) throw new PetstoreError(response, error)
    const next = nextPage(response.headers, response.url)
    yield { items: data as ListItem<Op>[], response, next: next?.url }
    if (!next) return
    // The next link carries every query parameter (limit, filters, cursor); send them as given.
    const { searchParams } = new URL(next.url, 'http://next.invalid')
    query = Object.fromEntries(searchParams)
  }
}

/**
 * Every item of a list operation matching the filters, page after page, as one async iterator.
 *
 * @example
 * ```ts
 * for await (const pet of paginate(client, 'listPets', { status: 'available', limit: 100 })) {
 *   console.log(pet.id, pet.name)
 * }
 * ```
 */
export async function* paginate<Op extends ListOperationId>(
  client: Client<paths>,
  operation: Op,
  ...options: OptionsParam<Op>
): AsyncGenerator<ListItem<Op>, void, undefined> {
  for await (const page of paginatePages(client, operation, ...options)) yield* page.items
}
