import type { operations, Pet, paths } from '@petstore/types'
import type { Client } from 'openapi-fetch'
import { PetstoreError } from './errors.js'
import { nextPage } from './http/link.js'

type ListQuery = NonNullable<operations['listPets']['parameters']['query']>

/** Filters and page size for {@link paginate}; `signal` cancels the walk. */
export interface PaginateOptions extends Omit<ListQuery, 'cursor'> {
  signal?: AbortSignal
}

/** One page of `listPets` with the response that carried it. */
export interface Page {
  pets: Pet[]
  response: Response
  /** The `next` link's URL; absent on the last page. */
  next: string | undefined
}

/**
 * Every page of `listPets`, following `Link: <…>; rel="next"` until it is absent. An error
 * response is thrown as a {@link PetstoreError}.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8288
 * @example
 * ```ts
 * for await (const page of paginatePages(client, { limit: 100 })) {
 *   console.log(page.pets.length, page.response.headers.get('X-RateLimit-Remaining'))
 * }
 * ```
 */
export async function* paginatePages(
  client: Client<paths>,
  options: PaginateOptions = {},
): AsyncGenerator<Page, void, undefined> {
  const { signal, ...filters } = options
  let query: ListQuery = filters
  for (;;) {
    const { data, error, response } = await client.GET('/pets', { params: { query }, signal })
    if (data === undefined) throw new PetstoreError(response, error)
    const next = nextPage(response.headers, response.url)
    yield { pets: data, response, next: next?.url }
    if (!next) return
    // The next link carries every parameter (limit, status, cursor); send them as given.
    const { searchParams } = new URL(next.url, 'http://next.invalid')
    query = Object.fromEntries(searchParams) as unknown as ListQuery
  }
}

/**
 * Every pet matching `status`, page after page, as one async iterator.
 *
 * @example
 * ```ts
 * for await (const pet of paginate(client, { status: 'available', limit: 100 })) {
 *   console.log(pet.id, pet.name)
 * }
 * ```
 */
export async function* paginate(
  client: Client<paths>,
  options: PaginateOptions = {},
): AsyncGenerator<Pet, void, undefined> {
  for await (const page of paginatePages(client, options)) yield* page.pets
}
