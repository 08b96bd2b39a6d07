/**
 * The query string parser: keeps every value as the raw string it was sent as, and a
 * parameter given twice as an array, so validation can reject `010` or `limit=1&limit=2`
 * before anything is coerced. The result has no prototype (`__proto__` is just a name). Bad
 * percent-encoding is marked (`malformed`) for the validator to refuse with `400`.
 * @see https://url.spec.whatwg.org/#urlencoded-parsing
 */
export function parseQueryString(query: string): Record<string, string | string[]> {
  const parsed: Record<string, string | string[]> = Object.create(null)
  // A parser that throws leaves Fastify's request hanging: the validator refuses it instead.
  if (query.includes('%') && !wellEncoded(query))
    Object.defineProperty(parsed, malformed, { value: true })
  for (const [name, value] of new URLSearchParams(query)) {
    const seen = parsed[name]
    if (seen === undefined) parsed[name] = value
    else if (Array.isArray(seen)) seen.push(value)
    else parsed[name] = [seen, value]
  }
  return parsed
}

/** Set on a parsed query whose percent-encoding is bad (`wellEncoded`): it is `400`. */
const malformed = Symbol('bad percent-encoding')

/** Whether `parsed`, from parseQueryString, came from a query with bad percent-encoding. */
export function badlyEncoded(parsed: object): boolean {
  return Object.hasOwn(parsed, malformed)
}

/**
 * False for a query whose percent-encoding is malformed (`%` without two hex digits) or does
 * not decode to UTF-8 (`%C0%AE`): URLSearchParams would keep the first as text and turn the
 * second into U+FFFD, so a free-text parameter would take a value the client never sent.
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-2.1
 */
function wellEncoded(query: string): boolean {
  for (const pair of query.split('&')) {
    if (!pair.includes('%')) continue
    try {
      decodeURIComponent(pair.replaceAll('+', ' '))
    } catch {
      return false
    }
  }
  return true
}
