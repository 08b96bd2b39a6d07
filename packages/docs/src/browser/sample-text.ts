/**
 * How code samples read the API key and name the server, shared by the build (which writes the
 * samples) and the page (which shows them for the reader's own server and key). Pure string
 * work, no DOM, so that the build's tests exercise it directly.
 */

/** The environment variable every sample reads the API key from. */
export const apiKeyVariable = 'PETSTORE_API_KEY'

const quoted = (quote: string) => (key: string) =>
  `${quote}${key.replace(new RegExp(`[\\\\${quote}]`, 'g'), '\\$&')}${quote}`

/**
 * Each sample language's expression for the key, and the literal that replaces it when the reader
 * typed a key into the page. The expressions never contain one another, so the order of
 * replacement does not matter.
 */
export const keyReaders = {
  /** Inside a double-quoted shell word: `"Authorization: Bearer $PETSTORE_API_KEY"`. */
  shell: { read: `$${apiKeyVariable}`, literal: (key: string) => key.replace(/[\\"$`]/g, '\\$&') },
  /** TypeScript and JavaScript on Node.js. */
  javascript: { read: `process.env.${apiKeyVariable} ?? ''`, literal: quoted("'") },
  python: { read: `os.environ["${apiKeyVariable}"]`, literal: quoted('"') },
} as const

/** One literal replacement: every occurrence of `from` becomes `to`. */
export interface Substitution {
  from: string
  to: string
}

/**
 * The replacements that turn a sample as built (for `builtBaseUrl`, key from the environment)
 * into the one for `baseUrl` and the reader's `apiKey` (none when empty).
 */
export function sampleSubstitutions(
  builtBaseUrl: string,
  baseUrl: string,
  apiKey: string,
): Substitution[] {
  const substitutions: Substitution[] = []
  if (baseUrl && baseUrl !== builtBaseUrl) substitutions.push({ from: builtBaseUrl, to: baseUrl })
  const key = apiKey.trim()
  if (key) {
    for (const { read, literal } of Object.values(keyReaders)) {
      substitutions.push({ from: read, to: literal(key) })
    }
  }
  return substitutions
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * Applies `substitutions` to a text split into parts (the text nodes of a highlighted code
 * block), keeping the number of parts: a match that spans parts is replaced in the part where
 * it starts and removed from the others.
 */
export function substituteAcross(
  parts: readonly string[],
  substitutions: readonly Substitution[],
): string[] {
  const active = substitutions.filter(({ from }) => from !== '')
  if (active.length === 0) return [...parts]
  const text = parts.join('')
  const pattern = new RegExp(active.map(({ from }) => escapeRegExp(from)).join('|'), 'g')
  const matches = [...text.matchAll(pattern)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
    to: active.find(({ from }) => from === match[0])?.to ?? match[0],
  }))
  const result: string[] = []
  let offset = 0
  for (const part of parts) {
    const end = offset + part.length
    let out = ''
    for (let i = offset; i < end; ) {
      const match = matches.find((m) => m.start <= i && i < m.end)
      if (!match) {
        out += text[i]
        i += 1
        continue
      }
      if (match.start >= offset) out += match.to
      i = Math.min(match.end, end)
    }
    result.push(out)
    offset = end
  }
  return result
}

/** `substituteAcross` for a single text. */
export function substitute(text: string, substitutions: readonly Substitution[]): string {
  return substituteAcross([text], substitutions)[0] as string
}
