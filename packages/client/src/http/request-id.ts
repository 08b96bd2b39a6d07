/**
 * The service's `X-Request-Id` of a response: the identifier in its logs, to quote when reporting
 * a problem; `undefined` when absent (a proxy's own error page, or CORS not exposing it).
 *
 * @example
 * ```ts
 * console.log('request', requestIdOf(response.headers))
 * ```
 */
export function requestIdOf(headers: Headers): string | undefined {
  return headers.get('X-Request-Id') ?? undefined
}
