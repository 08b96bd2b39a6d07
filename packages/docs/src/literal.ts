/** Source-code spellings of JSON values, for generated samples. */

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** A TypeScript literal in the project's style: single quotes, unquoted keys where possible. */
export function toTypeScriptLiteral(value: unknown): string {
  if (typeof value === 'string') return `'${value.replace(/[\\']/g, '\\$&').replace(/\n/g, '\\n')}'`
  if (Array.isArray(value)) return `[${value.map(toTypeScriptLiteral).join(', ')}]`
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(
      ([key, item]) =>
        `${identifier.test(key) ? key : toTypeScriptLiteral(key)}: ${toTypeScriptLiteral(item)}`,
    )
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`
  }
  return JSON.stringify(value)
}

/**
 * A POSIX shell word that stands for exactly `value`: single-quoted, with each `'` closed,
 * escaped and reopened.
 * @see https://pubs.opengroup.org/onlinepubs/9699919799/utilities/V3_chap02.html#tag_18_02_02
 */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`
}

/** A Python literal for a JSON value (JSON strings are valid Python strings). */
export function toPythonLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'None'
  if (typeof value === 'boolean') return value ? 'True' : 'False'
  if (Array.isArray(value)) return `[${value.map(toPythonLiteral).join(', ')}]`
  if (typeof value === 'object') {
    const entries = Object.entries(value).map(
      ([key, item]) => `${JSON.stringify(key)}: ${toPythonLiteral(item)}`,
    )
    return `{${entries.join(', ')}}`
  }
  return JSON.stringify(value)
}
