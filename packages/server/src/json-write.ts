/**
 * JSON text of values from a JSON text (strings, finite numbers, booleans, null, and arrays and
 * objects of them), byte for byte what `JSON.stringify` writes, without calling it for the
 * primitives. `JSON.stringify` is a call into V8's runtime, whatever the value's size, made
 * several times a request: a request's log line quotes three strings, and a create's document
 * has a member per property.
 * A string with nothing to escape is quoted here; any other, and any array or object, is still
 * written by `JSON.stringify`.
 */

/**
 * What `JSON.stringify` escapes: `"`, `\`, controls below U+0020 and lone surrogates. A surrogate
 * pair matches too, and is left to `JSON.stringify`: telling a pair from a lone half is not
 * worth it here.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the controls JSON.stringify escapes
const escaped = /["\\\u0000-\u001f\ud800-\udfff]/

/**
 * `JSON.stringify(text)`: a string with nothing to escape is itself between quotes.
 *
 * @example
 * jsonString('Rex') // '"Rex"'
 * jsonString('a "b"') // '"a \\"b\\""'
 */
export function jsonString(text: string): string {
  return escaped.test(text) ? JSON.stringify(text) : `"${text}"`
}

/**
 * `JSON.stringify(value)` for a value read from JSON text: never undefined, a function, a bigint
 * or an object with `toJSON`, each of which `JSON.stringify` treats its own way.
 *
 * @example
 * jsonValue(7) // '7'
 * jsonValue(['a', null]) // '["a",null]'
 */
export function jsonValue(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return jsonString(value)
    case 'number':
      // String() and JSON.stringify write a finite number alike, -0 as `0` included.
      return Number.isFinite(value) ? String(value) : 'null'
    case 'boolean':
      return value ? 'true' : 'false'
    default:
      return JSON.stringify(value)
  }
}
