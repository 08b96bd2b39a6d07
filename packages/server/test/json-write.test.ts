/**
 * The JSON writer against `JSON.stringify` as its oracle, on any string (lone surrogates, quotes,
 * backslashes and controls included) and on any value a JSON text can hold.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { jsonString, jsonValue } from '../src/json-write.js'

/** Any UTF-16 code unit, so that lone surrogates come up as often as pairs. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c))
const anyString = fc.oneof(
  fc.string({ unit: codeUnit }),
  fc.string({ unit: 'binary' }),
  fc.string({
    unit: fc.constantFrom('a', '"', '\\', '\n', '\u001f', '\u007f', '\ud83d', '\udc15'),
  }),
)

describe('jsonString', () => {
  it.each([
    ['Rex', '"Rex"'],
    ['', '""'],
    ['a "b"', '"a \\"b\\""'],
    ['\u{1f415}', '"\u{1f415}"'],
    ['\ud83d', '"\\ud83d"'],
  ])('writes %j as JSON.stringify does', (text, json) => {
    expect(jsonString(text)).toBe(json)
    expect(jsonString(text)).toBe(JSON.stringify(text))
  })

  it('writes any string as JSON.stringify does', () => {
    fc.assert(
      fc.property(anyString, (text) => {
        expect(jsonString(text)).toBe(JSON.stringify(text))
      }),
      { numRuns: 20_000 },
    )
  })
})

describe('jsonValue', () => {
  it.each([[0], [-0], [1e21], [0.1], [-5e-324], [true], [false], [null], [[]], [{}]])(
    'writes %j as JSON.stringify does',
    (value) => {
      expect(jsonValue(value)).toBe(JSON.stringify(value))
    },
  )

  it('writes any value of a JSON text as JSON.stringify does', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(jsonValue(value)).toBe(JSON.stringify(value))
      }),
      { numRuns: 10_000 },
    )
  })
})
