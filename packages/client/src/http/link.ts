/** One `Link` header value split into its target and parameters. @see https://www.rfc-editor.org/rfc/rfc8288#section-3 */
export interface LinkValue {
  href: string
  rel: string[]
  params: Record<string, string>
}

const linkValuePattern = /<([^>]*)>((?:\s*;\s*[^;,=\s]+\s*(?:=\s*(?:"[^"]*"|[^;,]*))?)*)/g
const paramPattern = /;\s*([^;,=\s]+)\s*(?:=\s*(?:"([^"]*)"|([^;,]*)))?/g

/**
 * Parses a `Link` header (RFC 8288): `<url>; rel="next", <url>; rel="sunset"; type="text/html"`.
 *
 * @example
 * ```ts
 * parseLinks('</v1/pets?cursor=abc>; rel="next"') // [{ href: '/v1/pets?cursor=abc', rel: ['next'], params: { rel: 'next' } }]
 * ```
 */
export function parseLinks(header: string | null): LinkValue[] {
  if (!header) return []
  const links: LinkValue[] = []
  for (const [, href = '', rawParams = ''] of header.matchAll(linkValuePattern)) {
    const params: Record<string, string> = {}
    for (const [, name = '', quoted, bare] of rawParams.matchAll(paramPattern)) {
      params[name.toLowerCase()] = (quoted ?? bare ?? '').trim()
    }
    // rel is a space-separated, case-insensitive list of relation types (RFC 8288 §3.3).
    const rel = (params.rel ?? '').toLowerCase().split(/\s+/).filter(Boolean)
    links.push({ href, rel, params })
  }
  return links
}

/**
 * The absolute URL of the first link with relation `rel`, resolved against `base` (the response
 * URL), or `undefined`.
 */
export function findLink(headers: Headers, rel: string, base: string): string | undefined {
  const link = parseLinks(headers.get('Link')).find((candidate) => candidate.rel.includes(rel))
  if (!link) return undefined
  try {
    return new URL(link.href, base || undefined).href
  } catch {
    return link.href
  }
}

/** The next page, from `Link: <…>; rel="next"`. */
export interface NextPage {
  /** The next page's absolute URL (relative when the response has no URL to resolve it on). */
  url: string
  /** Its `cursor` query parameter, when it has one. */
  cursor: string | undefined
}

/**
 * The `rel="next"` link of a response, with its cursor; `undefined` on the last page.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8288
 * @example
 * ```ts
 * const next = nextPage(response.headers, response.url)
 * if (next) console.log('more after', next.cursor)
 * ```
 */
export function nextPage(headers: Headers, base: string): NextPage | undefined {
  const url = findLink(headers, 'next', base)
  if (url === undefined) return undefined
  // The base only matters for a relative link (a response built by middleware has no URL).
  const { searchParams } = new URL(url, 'http://next.invalid')
  return { url, cursor: searchParams.get('cursor') ?? undefined }
}
