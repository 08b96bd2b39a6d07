/**
 * Milliseconds to wait according to `Retry-After`, given as delay-seconds or as an HTTP-date;
 * `undefined` when absent or unreadable. A date in the past means "now" (0).
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3
 * @example
 * ```ts
 * parseRetryAfter('18', Date.now()) // 18000
 * ```
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
  const date = Date.parse(trimmed)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - now)
}
