/**
 * The JSON reader against `JSON.parse` as its oracle, on generated JSON texts (nesting, white
 * space, escaped and repeated keys, every way to write a number) and on those texts mutated
 * byte by byte: it accepts exactly what `JSON.parse` accepts, with the same value, except for the
 * two rules json-text.ts adds (a key twice in one object, an inexact integer where the schema
 * wants an integer), which a separate recursive reading of the tokens decides. It never throws.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readJsonText, type TextFlaw } from '../../src/http/json-text.js'

/** Where the tests want integers: any `categoryId`, and the second item of any array. */
function isInteger(path: readonly string[]): boolean {
  const last = path[path.length - 1]
  return last === 'categoryId' || last === '1'
}

const whiteSpace = fc.constantFrom('', '', ' ', '\n', '\t', '\r\n  ')

/** A string literal, some of its characters written as `\uXXXX` escapes. */
function stringLiteral(text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(text, fc.integer({ min: 0, max: 3 })).map(([value, escaping]) => {
    const plain = JSON.stringify(value)
    if (escaping !== 0 || value === '') return plain
    const escaped = [...value].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    return `"${escaped.join('')}"`
  })
}

/** Few distinct keys, so that objects often repeat one (sometimes spelled differently). */
const key = stringLiteral(
  fc.constantFrom('a', 'b', 'name', 'categoryId', 'status', '__proto__', '', '"', 'ü', '\u{1f415}'),
)

const numberLiteral = fc.oneof(
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
  fc.integer({ min: -20, max: 20 }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc
    .tuple(fc.integer({ min: -99, max: 99 }), fc.constantFrom('.0', '.5', '.00000000000000001'))
    .map(([whole, fraction]) => `${whole}${fraction}`),
  fc
    .tuple(fc.nat(20), fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.nat(400))
    .map((parts) => parts.join('')),
  fc.constantFrom('-0', '-0.0', '0.99999999999999999999', '9007199254740993', '1e0'),
  // Around the reader's shortcut: up to 15 plain digits are exact without a closer look.
  fc.constantFrom('999999999999999', '-999999999999999', '9007199254740991', '-9007199254740992'),
)

const leaf = fc.oneof(
  numberLiteral,
  stringLiteral(fc.string({ unit: 'binary', maxLength: 6 })),
  fc.constantFrom('true', 'false', 'null'),
)

const { value: jsonText } = fc.letrec<{ value: string; array: string; object: string }>((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
  array: fc
    .array(fc.tuple(whiteSpace, tie('value'), whiteSpace), { maxLength: 4 })
    .map((items) => `[${items.map((item) => item.join('')).join(',')}]`),
  object: fc
    .array(fc.tuple(whiteSpace, key, whiteSpace, tie('value'), whiteSpace), { maxLength: 5 })
    .map((entries) => `{${entries.map(([a, k, b, v, c]) => `${a}${k}${b}:${v}${c}`).join(',')}}`),
}))

/** The characters that change JSON's structure most, for insertions and replacements. */
const mutationChar = fc.constantFrom(...'{}[],:"\\ 0123456789-+.eEtrufalsn\u0000\u00a0')

/** Each edit of `text` at `i` (a position within it), with a character or a span length. */
const edits = {
  delete: (text: string, i: number) => text.slice(0, i) + text.slice(i + 1),
  insert: (text: string, i: number, c: string) => text.slice(0, i) + c + text.slice(i),
  replace: (text: string, i: number, c: string) => text.slice(0, i) + c + text.slice(i + 1),
  repeat: (text: string, i: number, _: string, span: number) =>
    text.slice(0, i + span) + text.slice(i, i + span) + text.slice(i + span),
  cut: (text: string, i: number) => text.slice(0, i),
}

const edit = fc.record({
  kind: fc.constantFrom(...(Object.keys(edits) as (keyof typeof edits)[])),
  at: fc.nat(),
  c: mutationChar,
  span: fc.integer({ min: 1, max: 8 }),
})

const mutatedText = fc
  .tuple(jsonText, fc.array(edit, { minLength: 1, maxLength: 3 }))
  .map(([text, list]) =>
    list.reduce(
      (result, { kind, at, c, span }) => edits[kind](result, at % (result.length + 1), c, span),
      text,
    ),
  )

/** JSON tokens; only ever applied to a text `JSON.parse` accepted. */
const token = /[ \t\n\r]*("(?:[^"\\]|\\.)*"|[{}[\],:]|-?[0-9][0-9eE.+-]*|true|false|null)/y

function tokensOf(text: string): string[] {
  const tokens: string[] = []
  token.lastIndex = 0
  for (let match = token.exec(text); match !== null; match = token.exec(text)) {
    tokens.push(match[1] as string)
  }
  return tokens
}

function isExactInteger(literal: string): boolean {
  if (!/^-?(0|[1-9][0-9]*)$/.test(literal)) return false
  const n = BigInt(literal)
  return n <= BigInt(Number.MAX_SAFE_INTEGER) && n >= -BigInt(Number.MAX_SAFE_INTEGER)
}

/** The first flaw in text order, read recursively (unlike the reader) from the tokens. */
function expectedFlaw(text: string): TextFlaw | undefined {
  const tokens = tokensOf(text)
  let at = 0
  const next = () => tokens[at++] as string
  const value = (path: string[]): TextFlaw | undefined => {
    const first = next()
    if (first === '{') {
      const keys = new Set<string>()
      if (tokens[at] === '}') return void at++
      do {
        const name = JSON.parse(next()) as string
        if (keys.has(name)) return { kind: 'duplicateKey', path, key: name }
        keys.add(name)
        next()
        const flaw = value([...path, name])
        if (flaw !== undefined) return flaw
      } while (next() === ',')
      return undefined
    }
    if (first === '[') {
      if (tokens[at] === ']') return void at++
      let index = 0
      do {
        const flaw = value([...path, String(index++)])
        if (flaw !== undefined) return flaw
      } while (next() === ',')
      return undefined
    }
    if (/^-?[0-9]/.test(first) && isInteger(path) && !isExactInteger(first)) {
      return { kind: 'inexactInteger', path }
    }
    return undefined
  }
  return value([])
}

/** What the reader must answer for `text`, with `JSON.parse` deciding what is JSON at all. */
function expectReadAsOracle(text: string): void {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    expect(readJsonText(text, isInteger)).toEqual({ ok: false, flaw: { kind: 'notJson' } })
    return
  }
  const flaw = expectedFlaw(text)
  expect(readJsonText(text, isInteger)).toEqual(
    flaw === undefined ? { ok: true, value } : { ok: false, flaw },
  )
}

describe('readJsonText against JSON.parse', () => {
  it.each([
    ['[{},"x"]', undefined],
    ['{"a":[{},"b"]}', undefined],
    ['{"name":"Rex","categoryId":1,"status":[{},"x"]}', undefined],
    ['[[],{"a":1,"a":2}]', { kind: 'duplicateKey', path: ['1'], key: 'a' }],
    ['{"x":{},"categoryId":1.0}', { kind: 'inexactInteger', path: ['categoryId'] }],
    ['{"a":{"b":{}},"a":1}', { kind: 'duplicateKey', path: [], key: 'a' }],
  ])('a value after a closed container: %s', (text, flaw) => {
    expect(readJsonText(text, isInteger)).toEqual(
      flaw === undefined ? { ok: true, value: JSON.parse(text) } : { ok: false, flaw },
    )
    expectReadAsOracle(text)
  })

  // 100,000 cases in all, split between valid texts and texts that mostly are not.
  it('reads generated JSON as JSON.parse does, refusing only repeated keys and inexact integers', () => {
    fc.assert(fc.property(jsonText, expectReadAsOracle), { numRuns: 50_000 })
  })

  it('accepts a mutated text exactly when JSON.parse does, and never throws', () => {
    fc.assert(fc.property(mutatedText, expectReadAsOracle), { numRuns: 50_000 })
  })
})
