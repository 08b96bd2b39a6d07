/**
 * The inline Markdown a one-line description uses: code spans and backslash escapes, read as
 * CommonMark reads them. Everything else stays text, so HTML in a description is never markup.
 * @see https://spec.commonmark.org/0.31.2/#code-spans
 */

export type InlineSegment = { kind: 'text'; text: string } | { kind: 'code'; text: string }

const escapable = /[!-/:-@[-`{-~]/

/** The segments of `source`, adjacent text merged. */
export function inlineSegments(source: string): InlineSegment[] {
  const segments: InlineSegment[] = []
  const pushText = (text: string) => {
    const last = segments.at(-1)
    if (last?.kind === 'text') last.text += text
    else if (text) segments.push({ kind: 'text', text })
  }
  let i = 0
  while (i < source.length) {
    const char = source[i] as string
    if (char === '\\' && escapable.test(source[i + 1] ?? '')) {
      pushText(source[i + 1] as string)
      i += 2
      continue
    }
    if (char !== '`') {
      pushText(char)
      i += 1
      continue
    }
    const opener = /^`+/.exec(source.slice(i))?.[0] as string
    const closer = new RegExp(`(?<!\`)${opener}(?!\`)`, 'g')
    closer.lastIndex = i + opener.length
    const close = closer.exec(source)
    if (!close) {
      // An unmatched run of backticks is literal text.
      pushText(opener)
      i += opener.length
      continue
    }
    let code = source.slice(i + opener.length, close.index).replace(/\r?\n/g, ' ')
    if (/^ .*[^ ].* $/s.test(code)) code = code.slice(1, -1)
    segments.push({ kind: 'code', text: code })
    i = close.index + opener.length
  }
  return segments
}

/** What a reader sees of `source`, as plain text (for places that cannot hold markup). */
export function inlinePlainText(source: string): string {
  return inlineSegments(source)
    .map((segment) => segment.text)
    .join('')
}

/** Whether `source` reads differently as Markdown than as text. */
export function hasInlineMarkdown(source: string): boolean {
  const segments = inlineSegments(source)
  return !(segments.length === 0 || (segments.length === 1 && segments[0]?.text === source))
}
