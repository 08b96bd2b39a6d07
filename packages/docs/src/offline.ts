/**
 * Keeps the rendered page self-contained: it must work offline and make no request to any host
 * but its own. Redoc 3 fetches one thing from a CDN even with `--inlineBundle` (the Redocly
 * logo in the "API docs by" footer); it is swapped for an inline image. `findRemoteFetches` is
 * the build's guard against anything new of the kind.
 */

function svgDataUri(svg: string): string {
  return `data:image/svg+xml,${encodeURIComponent(svg)}`
}

/**
 * The attribution stays ("API docs by Redocly"), drawn as text instead of fetched, in a blue
 * that reads on both the light and the dark theme.
 */
const wordmark = svgDataUri(
  '<svg xmlns="http://www.w3.org/2000/svg" width="54" height="14" viewBox="0 0 54 14">' +
    '<text x="0" y="11" font-family="system-ui,sans-serif" font-size="11" font-weight="600" ' +
    'fill="#3d6df2">Redocly</text></svg>',
)
const mark = svgDataUri(
  '<svg xmlns="http://www.w3.org/2000/svg" width="14" height="14" viewBox="0 0 14 14">' +
    '<text x="2" y="11" font-family="system-ui,sans-serif" font-size="11" font-weight="700" ' +
    'fill="#3d6df2">R</text></svg>',
)

/** Remote assets Redoc's bundle loads at run time, and what replaces each. */
export const remoteAssetReplacements: Readonly<Record<string, string>> = {
  'https://cdn.redoc.ly/redoc/logo-mini-full.svg': wordmark,
  'https://cdn.redoc.ly/redoc/logo-mini.svg': mark,
}

/** The page with every known remote asset replaced by its inline stand-in. */
export function inlineRemoteAssets(html: string): string {
  let result = html
  for (const [url, replacement] of Object.entries(remoteAssetReplacements)) {
    result = result.replaceAll(url, replacement)
  }
  return result
}

const loopback = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/i

function isRemote(url: string): boolean {
  const host = url.replace(/^(https?:)?\/\//i, '').split(/[/?#"'`\s]/)[0] ?? ''
  return !loopback.test(host)
}

/** Tags whose URL attribute the browser fetches on load (anchors only navigate when clicked). */
const fetchingAttribute =
  /<(?:script|img|iframe|audio|video|source|track|embed|object|link|image|use)\b[^>]*?\s(?:src|href|srcset|data|poster|xlink:href)\s*=\s*["']?((?:https?:)?\/\/[^"'\s>]+)/gi
const cssUrl = /(?:url\(\s*["']?|@import\s+["'])((?:https?:)?\/\/[^"')\s]+)/gi
/** In scripts: an image source, a module import or a fetch whose target is a remote literal. */
const scriptFetch =
  /(?:\bsrc\s*[:=]\s*[^,;(){}]{0,40}?|\bimport\s*\(?\s*|\bfrom\s*|\bfetch\s*\(\s*)["'`]((?:https?:)?\/\/[^"'`\s]+)/g

/**
 * Remote URLs that the page would request when opened: tags that load resources, CSS `url()`
 * and `@import`, and image sources, imports and fetches in inline scripts. Loopback hosts are
 * not remote. A heuristic by nature: the browser tests record the real requests.
 */
export function findRemoteFetches(html: string): string[] {
  const found = new Set<string>()
  const withoutScripts = html.replace(/(<script\b[^>]*>)[\s\S]*?(<\/script>)/gi, '$1$2')
  for (const pattern of [fetchingAttribute, cssUrl]) {
    for (const match of withoutScripts.matchAll(pattern)) found.add(match[1] as string)
  }
  for (const script of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)) {
    const body = script[1] as string
    for (const pattern of [scriptFetch, cssUrl]) {
      for (const match of body.matchAll(pattern)) found.add(match[1] as string)
    }
  }
  return [...found].filter(isRemote).sort()
}
