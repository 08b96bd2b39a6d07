/**
 * Which server the page's samples and console address. The service serves these docs at
 * `/docs/` next to its API at `/v1`; there the page's own origin is the API the reader came for.
 * Anywhere else (a static host, a file) it is the server the build named.
 *
 * Asking the origin whether it is the service (`HEAD /v1/openapi.json`) would tell a static host
 * that mounts the site at `/docs/` apart too, but a refused request logs an error in every
 * reader's console; such a host can rebuild with `PETSTORE_DOCS_API_URL` and mount elsewhere.
 */

/** The path the service serves the docs at. */
const servicePath = /^\/docs\/(index\.html)?$/

/** This origin's `/v1` when the page is at the service's docs path, else `builtBaseUrl`. */
export function apiBaseUrl(builtBaseUrl: string): string {
  const served = /^https?:$/.test(location.protocol) && servicePath.test(location.pathname)
  return served ? `${location.origin}/v1` : builtBaseUrl
}
