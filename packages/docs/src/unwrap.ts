/**
 * Joins the spec's hard-wrapped Markdown lines with spaces, in the copy the page renders. Markdown
 * itself reads a single line break inside a paragraph as a space, but Redoc 3's search indexes
 * the raw text with its line breaks dropped, so a description wrapped after "retries" shows
 * "retriessafe" in a search snippet. Only soft breaks inside a paragraph or a list item are
 * joined: code blocks, tables, headings, list items and block quotes keep their lines.
 * @see https://spec.commonmark.org/0.31.2/#soft-line-breaks
 */

const fence = /^\s*(```|~~~)/
/** A line that starts a block of its own: heading, list item, table row, quote, rule, HTML. */
const blockStart = /^\s*(#{1,6}\s|[-*+]\s|\d+[.)]\s|\||>|<|([-*_=])\s*\2\s*\2[\s\-*_=]*$)/
/** Two trailing spaces or a backslash: a hard break, which must stay a break. */
const hardBreak = /( {2}|\\)$/

/**
 * The text with each soft line break inside a paragraph replaced by one space.
 * @example
 * unwrapMarkdown('make retries\nsafe: a retry') // 'make retries safe: a retry'
 */
export function unwrapMarkdown(text: string): string {
  const out: string[] = []
  let inFence = false
  /** Whether the previous output line is paragraph text a continuation may join. */
  let open = false
  for (const line of text.split('\n')) {
    if (fence.test(line)) {
      inFence = !inFence
      out.push(line)
      open = false
      continue
    }
    const blank = line.trim() === ''
    const previous = out.at(-1)
    // After a blank line, an indented line would be a code block: never join onto it either.
    const indentedCode: boolean = !open && /^( {4}|\t)/.test(line) && !blank
    if (!inFence && open && !blank && !blockStart.test(line) && previous !== undefined) {
      out[out.length - 1] = `${previous} ${line.trim()}`
    } else {
      out.push(line)
    }
    const last = out.at(-1) ?? ''
    open =
      !inFence && !blank && !indentedCode && !/^\s*(#|\||<)/.test(last) && !hardBreak.test(last)
  }
  return out.join('\n')
}

/** Values that are data, not prose: an example's `description` field stays as sent. */
const skipped = new Set(['example', 'examples', 'x-codeSamples', 'enum', 'default', 'const'])

/** A copy of the document with every `description` unwrapped by `unwrapMarkdown`. */
export function withUnwrappedDescriptions<T>(document: T): T {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk)
    if (typeof node !== 'object' || node === null) return node
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => {
        if (skipped.has(key)) return [key, value]
        if (key === 'description' && typeof value === 'string') return [key, unwrapMarkdown(value)]
        return [key, walk(value)]
      }),
    )
  }
  return walk(document) as T
}
