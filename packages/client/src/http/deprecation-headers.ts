/**
 * `Deprecation: @1767225600`: a Structured Field date, Unix seconds; `undefined` when absent or
 * unreadable.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9745#section-2.1
 * @example
 * ```ts
 * parseDeprecation('@1767225600') // 2026-01-01T00:00:00.000Z
 * ```
 */
export function parseDeprecation(value: string | null): Date | undefined {
  const match = /^@(-?\d+)$/.exec(value?.trim() ?? '')
  return match ? new Date(Number(match[1]) * 1000) : undefined
}

/**
 * `Sunset: Thu, 05 Dec 2030 00:00:00 GMT`: an HTTP-date; `undefined` when absent or unreadable.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8594#section-3
 * @example
 * ```ts
 * parseHttpDate('Thu, 05 Dec 2030 00:00:00 GMT') // 2030-12-05T00:00:00.000Z
 * ```
 */
export function parseHttpDate(value: string | null): Date | undefined {
  const time = value === null ? Number.NaN : Date.parse(value)
  return Number.isNaN(time) ? undefined : new Date(time)
}
