/**
 * The service's own URLs: where the API and the docs are mounted, and the base URL of an
 * address, so that the log lines and `startPetstore` spell them one way.
 */
import { specBasePath } from './spec/operations.js'

/** The API's base path, from the spec's first server URL (`/v1`). */
export const apiBasePath = specBasePath()

/** Where the rendered docs are served. */
export const docsPath = '/docs'

/**
 * `http://host:port`, an IPv6 address in brackets (RFC 3986's IP-literal).
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-3.2.2
 *
 * @example
 * ```ts
 * baseUrl('::1', 3000) // 'http://[::1]:3000'
 * ```
 */
export function baseUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`
}
