/**
 * The query string parser: keeps every value as the raw string it was sent as, and a
 * parameter given twice as an array, so validation can reject `010` or `limit=1&limit=2`
 * before anything is coerced. The result has no prototype (`__proto__` is just a name).
 * @see https://url.spec.whatwg.org/#urlencoded-parsing
 */
export function parseQueryString(query: string): Record<string, string | string[]> {
  const parsed: Record<string, string | string[]> = Object.create(null)
  for (const [name, value] of new URLSearchParams(query)) {
    const seen = parsed[name]
    if (seen === undefined) parsed[name] = value
    else if (Array.isArray(seen)) seen.push(value)
    else parsed[name] = [seen, value]
  }
  return parsed
}
