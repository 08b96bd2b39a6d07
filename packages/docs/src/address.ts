/**
 * Fixes the page's address before Redoc reads it, so that links into the docs keep working:
 *
 * - served at `/docs` (no slash), relative URLs such as `openapi.json` would resolve against
 *   `/`; the address becomes `/docs/`;
 * - the deprecation `Link` headers and older links use Redoc 2 anchors (`#operation/getPet`,
 *   `#section/Deprecation-policy`, `#tag/pets`); Redoc 3 routes are `#/pets/getpet`,
 *   `#/section/deprecation-policy`, `#/pets`. Old anchors are rewritten to the new routes;
 * - Redoc 3's server-rendered menu and heading links point at its routes as paths
 *   (`href="/section/pagination"`), and hydration keeps them: clicked, its router moves to the
 *   hash; opened in a new tab, copied or bookmarked, they leave the docs for the host's root (a
 *   404 on a project site such as `https://<owner>.github.io/<repo>/`). The build makes them the
 *   hash routes the client renders (`hashRouteLinks`).
 */
import { listOperations, type OpenApiDocument } from './openapi.js'

/** Redoc 2 anchor (without `#`) to Redoc 3 route, for every operation and tag. */
export function legacyAnchors(document: OpenApiDocument): Record<string, string> {
  const anchors: Record<string, string> = {}
  for (const { operation } of listOperations(document)) {
    const tag = (operation as { tags?: string[] }).tags?.[0]
    if (!operation.operationId || !tag) continue
    anchors[`operation/${operation.operationId}`] = `/${tag}/${operation.operationId.toLowerCase()}`
    anchors[`tag/${tag}`] = `/${tag}`
  }
  return anchors
}

/**
 * Where an address should point instead, or `undefined` when it is fine. The same rules as
 * `addressScript`, for tests.
 */
export function correctedAddress(
  anchors: Readonly<Record<string, string>>,
  address: { pathname: string; search: string; hash: string },
): string | undefined {
  const { search } = address
  let { pathname, hash } = address
  let changed = false
  if (!/\/$|\.[A-Za-z0-9]+$/.test(pathname)) {
    pathname = `${pathname}/`
    changed = true
  }
  const anchor = decodeURIComponent(hash.slice(1))
  const route =
    anchors[anchor] ?? (/^section\//.test(anchor) ? `/${anchor.toLowerCase()}` : undefined)
  if (route) {
    hash = `#${route}`
    changed = true
  }
  return changed ? `${pathname}${search}${hash}` : undefined
}

/** The inline script: `correctedAddress` applied with `history.replaceState`, no reload. */
export function addressScript(anchors: Readonly<Record<string, string>>): string {
  return `(function(a){try{var p=location.pathname,h=location.hash,c=false;if(!/\\/$|\\.[A-Za-z0-9]+$/.test(p)){p+='/';c=true}var n=decodeURIComponent(h.slice(1)),r=Object.prototype.hasOwnProperty.call(a,n)?a[n]:(/^section\\//.test(n)?'/'+n.toLowerCase():'');if(r){h='#'+r;c=true}if(c)history.replaceState(null,'',p+location.search+h)}catch(e){}})(${JSON.stringify(anchors).replace(/</g, '\\u003c')})`
}

/** An anchor whose `href` is a root-relative path (not `//host`): Redoc's route links. */
const routeLink = /(<a\b[^>]*?\shref=")\/(?!\/)([^"]*")/gi

/**
 * `html` with Redoc's server-rendered route links (`href="/pets/getpet"`) made hash routes
 * (`href="#/pets/getpet"`), as the client renders them; scripts are left as they are.
 *
 * @example
 * ```ts
 * hashRouteLinks('<a class="m" href="/section/errors">') // '<a class="m" href="#/section/errors">'
 * ```
 */
export function hashRouteLinks(html: string): string {
  return html
    .split(/(<script\b[^>]*>[\s\S]*?<\/script>)/i)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(routeLink, '$1#/$2')))
    .join('')
}
