/**
 * Reads a JSON text as `JSON.parse` does, and also refuses what `JSON.parse` hides: a key given
 * twice in one object (the last one silently wins) and a number literal that only rounds to an
 * integer (`0.99999999999999999999` reads as `1`, `1.0` and `1e0` as `1`). Both mean the client
 * sent something other than what would be stored, so the body parser refuses them
 * (json-body.ts). Apart from these two rules, a text is accepted exactly when `JSON.parse`
 * accepts it, and the reading never throws: every refusal is a returned `TextFlaw`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8259#section-4 names within an object SHOULD be unique
 * @see https://www.rfc-editor.org/rfc/rfc8259#section-6 numbers and interoperability
 */

/** Why a text is refused; `path` holds property names and array indexes from the root. */
export type TextFlaw =
  | { kind: 'notJson' }
  | { kind: 'duplicateKey'; path: readonly string[]; key: string }
  | { kind: 'inexactInteger'; path: readonly string[] }

/** An integer as the spec means it: plain digits that a JSON number holds exactly. */
const plainInteger = /^-?(0|[1-9][0-9]*)$/

export type JsonReading = { ok: true; value: unknown } | { ok: false; flaw: TextFlaw }

/**
 * The value of `text`, or why it is refused. `isInteger` says whether the value at a path must
 * be an integer (from the request's schema); only there are number literals checked.
 *
 * @example
 * readJsonText('{"a":1,"a":2}', () => false)
 * // { ok: false, flaw: { kind: 'duplicateKey', path: [], key: 'a' } }
 */
export function readJsonText(
  text: string,
  isInteger: (path: readonly string[]) => boolean,
): JsonReading {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { ok: false, flaw: { kind: 'notJson' } }
  }
  const flaw = findTextFlaw(text, isInteger)
  return flaw === undefined ? { ok: true, value } : { ok: false, flaw }
}

interface Frame {
  /** The object's keys so far; undefined for an array. */
  keys: Set<string> | undefined
  index: number
}

/**
 * The first flaw of `text`, which must be valid JSON: the scan trusts its structure (an
 * unterminated string would never end).
 *
 * Iterative, so that nesting as deep as `JSON.parse` accepts cannot overflow the stack.
 */
function findTextFlaw(
  text: string,
  isInteger: (path: readonly string[]) => boolean,
): TextFlaw | undefined {
  const frames: Frame[] = []
  const path: string[] = []
  let expectKey = false
  let i = 0
  while (i < text.length) {
    const c = text.charCodeAt(i)
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const object = c === 0x7b
      frames.push({ keys: object ? new Set() : undefined, index: 0 })
      path.push(object ? '' : '0')
      expectKey = object
      i++
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      frames.pop()
      path.pop()
      // A closed container is a value: what follows it is a `,` or another close, never a key.
      expectKey = false
      i++
    } else if (c === 0x2c /* , */) {
      const top = frames[frames.length - 1] as Frame
      if (top.keys === undefined) path[path.length - 1] = String(++top.index)
      else expectKey = true
      i++
    } else if (c === 0x22 /* " */) {
      const end = stringEnd(text, i)
      if (expectKey) {
        const keys = (frames[frames.length - 1] as Frame).keys as Set<string>
        const inner = text.slice(i + 1, end - 1)
        const key = inner.includes('\\') ? (JSON.parse(text.slice(i, end)) as string) : inner
        if (keys.has(key)) return { kind: 'duplicateKey', path: path.slice(0, -1), key }
        keys.add(key)
        path[path.length - 1] = key
        expectKey = false
      }
      i = end
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1
      let digitsOnly = true
      for (; end < text.length; end++) {
        const d = text.charCodeAt(end)
        if (d >= 0x30 && d <= 0x39) continue
        if (!isNumberChar(d)) break
        digitsOnly = false
      }
      // Valid JSON has no leading zeros, so up to 15 plain digits are an exact integer already.
      const digits = c === 0x2d ? end - i - 1 : end - i
      const exact = digitsOnly && digits <= 15
      if (!exact && !isExactInteger(text.slice(i, end)) && isInteger(path)) {
        return { kind: 'inexactInteger', path }
      }
      i = end
    } else {
      i++
    }
  }
  return undefined
}

function isExactInteger(literal: string): boolean {
  return plainInteger.test(literal) && Number.isSafeInteger(Number(literal))
}

/** Digits, sign, fraction and exponent characters. */
function isNumberChar(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2b || c === 0x2d || c === 0x65 || c === 0x45
  )
}

/** The index just past the string literal that starts at `start`. */
function stringEnd(text: string, start: number): number {
  let quote = text.indexOf('"', start + 1)
  for (;;) {
    let backslashes = 0
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++
    if (backslashes % 2 === 0) return quote + 1
    quote = text.indexOf('"', quote + 1)
  }
}

/**
 * `isInteger` for a body schema (`$ref`s inlined): true where the schema, followed through
 * `properties` and `items`, says `type: integer`.
 */
export function integerPaths(schema: unknown): (path: readonly string[]) => boolean {
  return (path) => {
    let node = schema as Record<string, unknown> | undefined
    for (const segment of path) {
      if (node === undefined) return false
      const properties = node.properties as Record<string, Record<string, unknown>> | undefined
      node = properties?.[segment] ?? (node.items as Record<string, unknown> | undefined)
    }
    const type = node?.type
    return type === 'integer' || (Array.isArray(type) && type.includes('integer'))
  }
}
