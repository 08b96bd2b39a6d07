/** Small, exact edits to the HTML that Redocly renders. */

/** JSON that is safe inside a `<script>` element: no `</script>` or `<!--` can appear. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c')
}

function insertAt(html: string, index: number, marker: string, snippet: string): string {
  if (index < 0) throw new Error(`the rendered page has no ${marker}`)
  return `${html.slice(0, index)}${snippet}${html.slice(index)}`
}

/**
 * Inserts `snippet` at the start of `<head>`, before anything the page loads, but after the
 * charset declaration, which must stay within the first 1024 bytes.
 * @see https://html.spec.whatwg.org/multipage/semantics.html#charset
 */
export function prependToHead(html: string, snippet: string): string {
  const open = html.search(/<head\b[^>]*>/i)
  if (open < 0) return insertAt(html, -1, '<head>', snippet)
  const afterHead = html.indexOf('>', open) + 1
  const charset = /^\s*<meta\s+charset=[^>]*>/i.exec(html.slice(afterHead))
  return insertAt(html, afterHead + (charset?.[0].length ?? 0), '<head>', snippet)
}

/**
 * Inserts `snippet` at the end of `<head>`. The first `</head>` is the document's: Redoc's
 * inline bundle comes later, inside `<body>`.
 */
export function appendToHead(html: string, snippet: string): string {
  return insertAt(html, html.indexOf('</head>'), '</head>', snippet)
}

/** Inserts `snippet` at the end of `<body>` (the last `</body>`, after Redoc's bundle). */
export function appendToBody(html: string, snippet: string): string {
  return insertAt(html, html.lastIndexOf('</body>'), '</body>', snippet)
}

/** Text or an attribute value, safe between tags and inside quotes (HTML and XML alike). */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}
