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
  // An HTTP-date always names its day and month; Date.parse alone would take '-5' for a year.
  const date = /[A-Za-z]{3}/.test(trimmed) ? Date.parse(trimmed) : Number.NaN
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - now)
}
