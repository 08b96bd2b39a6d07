/**
 * Single requests made before the load: to check that a target answers a call with a 2xx, to
 * capture the service's responses for the wire ceiling, and to find a deep cursor.
 */
import type { CannedResponse } from './ceilings/wire.js'
import type { HttpCall } from './load.js'

/** The path of a page of listPets: `query` (e.g. `limit=20&status=available`), then the cursor. */
export function listingPath(query: string, cursor?: string): string {
  return `/v1/pets?${query}${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`
}

/** Sends `call` once and returns the response as the wire ceiling would replay it. */
export async function capture(baseUrl: string, call: HttpCall): Promise<CannedResponse> {
  const response = await fetch(`${baseUrl}${call.path}`, {
    method: call.method,
    headers: { ...call.headers },
    ...(call.body === undefined ? {} : { body: call.body }),
  })
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    headers[name] = value
  })
  return { status: response.status, headers, body: await response.text() }
}

/** Like `capture`, but a non-2xx answer is an error naming the target and the call. */
export async function expectOk(
  name: string,
  baseUrl: string,
  call: HttpCall,
): Promise<CannedResponse> {
  const response = await capture(baseUrl, call)
  if (response.status < 200 || response.status > 299) {
    throw new Error(
      `${name} answered ${call.method} ${call.path} with ${response.status}: ${response.body.slice(0, 300)}`,
    )
  }
  return response
}

/** The `cursor` of a response's `rel="next"` link, if it has one. */
export function nextCursor(link: string | undefined): string | undefined {
  const match = link === undefined ? null : /<([^>]*)>\s*;\s*rel="?next"?/.exec(link)
  if (match === null) return undefined
  return new URL(match[1] as string, 'http://link.invalid').searchParams.get('cursor') ?? undefined
}

/**
 * A cursor that points past pet `depth`, found through the API alone. First the cheap way:
 * the seed makes `status=sold` match only the pets after `depth`, so the next link of the first
 * sold pet points past it. If the target does not accept that cursor without the filter, walk
 * the pages (limit 100) until one ends past `depth`.
 */
export async function findDeepCursor(
  name: string,
  baseUrl: string,
  headers: Readonly<Record<string, string>>,
  depth: number,
): Promise<string> {
  const get = (path: string) => expectOk(name, baseUrl, { method: 'GET', path, headers })
  const firstId = (page: CannedResponse) => (JSON.parse(page.body) as { id: number }[])[0]?.id

  const sold = await get('/v1/pets?status=sold&limit=1')
  const filtered = nextCursor(sold.headers.link)
  if (filtered !== undefined) {
    const trial = await capture(baseUrl, {
      method: 'GET',
      path: listingPath('limit=20', filtered),
      headers,
    })
    if (trial.status === 200 && (firstId(trial) ?? 0) > depth) return filtered
  }

  let cursor: string | undefined
  for (;;) {
    const page = await get(listingPath('limit=100', cursor))
    const pets = JSON.parse(page.body) as { id: number }[]
    const next = nextCursor(page.headers.link)
    if (next === undefined) throw new Error(`${name}: the pages ended before pet ${depth}`)
    cursor = next
    if ((pets.at(-1)?.id ?? 0) >= depth) return cursor
  }
}

/** A page of a listing walk: the cursor the service handed out for it, and the id it starts after. */
export interface WalkedPage {
  /** Undefined for the first page. */
  cursor: string | undefined
  /** 0 for the first page: the data-path ceiling's cursor is this plain id. */
  afterId: number
}

/**
 * Every page of the listing `query` (e.g. `limit=20&status=available`), in order, found by
 * following the service's next links from the first page.
 */
export async function walkListing(
  baseUrl: string,
  headers: Readonly<Record<string, string>>,
  query: string,
): Promise<WalkedPage[]> {
  const pages: WalkedPage[] = []
  let page: WalkedPage | undefined = { cursor: undefined, afterId: 0 }
  while (page !== undefined) {
    pages.push(page)
    const response = await expectOk('service', baseUrl, {
      method: 'GET',
      path: listingPath(query, page.cursor),
      headers,
    })
    const next = nextCursor(response.headers.link)
    const last = (JSON.parse(response.body) as { id: number }[]).at(-1)
    page = next === undefined || last === undefined ? undefined : { cursor: next, afterId: last.id }
  }
  return pages
}

/** Every page of a listing as one call each, in order: a cold walk, to send as a `Rotation`. */
export async function walkCalls(
  baseUrl: string,
  headers: Readonly<Record<string, string>>,
  query: string,
): Promise<HttpCall[]> {
  return (await walkListing(baseUrl, headers, query)).map((page) => ({
    method: 'GET',
    path: listingPath(query, page.cursor),
    headers,
  }))
}
