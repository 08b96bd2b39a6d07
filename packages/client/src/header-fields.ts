/**
 * Which field of `meta` each response header the spec declares fills. The headers below are
 * parsed, each into the field named (the rate-limit headers together into `rateLimit`); `Link`
 * only for its `rel="next"`. Every other declared header, `Link` without that relation included,
 * is a field of its own named after it in camelCase (`ETag` -> `etag`, `WWW-Authenticate` ->
 * `wwwAuthenticate`) holding its text, or its number when its schema is an `integer`.
 *
 * Dependency-free, so the workspace's support table imports this list and shows and enforces
 * the same one (it refuses a header name that would not get a field of its own).
 */

/** The headers `meta` parses, by name, with the field each fills. */
export const parsedHeaders = {
  'X-Request-Id': 'requestId',
  RateLimit: 'rateLimit',
  'RateLimit-Policy': 'rateLimit',
  'X-RateLimit-Limit': 'rateLimit',
  'X-RateLimit-Remaining': 'rateLimit',
  'X-RateLimit-Reset': 'rateLimit',
  Link: 'next',
  Deprecation: 'deprecation',
  Sunset: 'sunset',
  'Retry-After': 'retryAfterMs',
} as const

/** The relation of a `Link` that `meta` parses (into `next`); any other `Link` is its own field, `link`. */
export const parsedLinkRelation = 'next'

/** The fields parsed headers fill. */
export type ParsedField = (typeof parsedHeaders)[keyof typeof parsedHeaders]

/** A header name that gets a field of its own: letters and digits in words joined by `-`. */
export const fieldHeaderName = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/

type Camel<Name extends string> = Name extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<Camel<Tail>>}`
  : Name

/** {@link fieldName} as a type: `FieldName<'WWW-Authenticate'>` is `'wwwAuthenticate'`. */
export type FieldName<Header extends string> = Camel<Lowercase<Header>>

/**
 * The field of a header that is not parsed: its name lower-cased, each `-` dropped and the
 * letter after it capitalized.
 *
 * @example
 * ```ts
 * fieldName('Idempotent-Replayed') // 'idempotentReplayed'
 * ```
 */
export function fieldName(header: string): string {
  return header.toLowerCase().replace(/-([a-z0-9])/g, (_, next: string) => next.toUpperCase())
}

const parsedNames = new Set(Object.keys(parsedHeaders).map((name) => name.toLowerCase()))

/** Whether some declaration of `header` fills a field of its own: it is not parsed, or a `Link`. */
export const hasOwnField = (header: string): boolean =>
  header.toLowerCase() === 'link' || !parsedNames.has(header.toLowerCase())
