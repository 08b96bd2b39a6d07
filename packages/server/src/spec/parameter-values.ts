/**
 * A parameter's value from the raw text it was sent as (a path segment, a query value, a header),
 * read by the type its schema declares, strictly: a value is accepted only in the one spelling
 * that means it, so `010`, `+5`, `1e1` or `yes` are refused rather than guessed at. Bounds and
 * enums are then the spec schema's, checked by Ajv on the value read here. The kinds of schema a
 * parameter may have are the support table's (`@petstore/types/support`); generation refuses the
 * others, so every parameter that reaches this module has one.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8259#section-6 (the number syntax accepted)
 */
import type { JsonSchema } from './document.js'

export type ValueReading = { value: unknown } | { error: string }

/** Reads one raw value by `schema`; `subject` names it in messages (`query parameter limit`). */
export type ValueReader = (raw: string) => ValueReading

const integerText = /^(0|-?[1-9][0-9]*)$/
const numberText = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/
const int64Max = 2n ** 63n - 1n
const int64Min = -(2n ** 63n)

/**
 * The type a parameter's value is read as: its `type`, or for an enum without one the type of
 * its members, integers when every member is one (the support table lets a parameter be an enum
 * of integers, numbers, booleans or strings, with or without `type`).
 */
function readType(schema: JsonSchema): unknown {
  if (schema.type !== undefined || !Array.isArray(schema.enum)) return schema.type
  const members: unknown[] = schema.enum
  if (members.length > 0 && members.every((member) => Number.isInteger(member))) return 'integer'
  const types = new Set(members.map((member) => typeof member))
  return types.size === 1 ? [...types][0] : undefined
}

/** The reader of a scalar schema, by the type its values have (`readType`). */
export function valueReader(schema: JsonSchema, subject: string): ValueReader {
  switch (readType(schema)) {
    case 'integer':
      return integerReader(schema, subject)
    case 'number':
      return (raw) =>
        numberText.test(raw) && Number.isFinite(Number(raw))
          ? { value: Number(raw) }
          : { error: `${subject} must be a number` }
    case 'boolean':
      return (raw) =>
        raw === 'true' || raw === 'false'
          ? { value: raw === 'true' }
          : { error: `${subject} must be true or false` }
    default:
      return (raw) => ({ value: raw })
  }
}

/**
 * Integers in plain digits, compared as BigInt before they become numbers, so an int64 bound is
 * exact; positive-only when the schema's minimum is 1 or more, which the message then says.
 */
function integerReader(schema: JsonSchema, subject: string): ValueReader {
  const minimum = bound(schema.minimum, int64Min)
  const maximum = bound(schema.maximum, int64Max)
  const safe = BigInt(Number.MAX_SAFE_INTEGER)
  const bounded = maximum <= safe && minimum >= -safe
  const kind = minimum >= 1n ? 'a positive integer' : 'an integer'
  const shape = bounded
    ? `${subject} must be an integer from ${minimum} to ${maximum}`
    : `${subject} must be ${kind}`
  const tooLarge = bounded ? shape : `${subject} must be ${kind} of at most ${maximum}`
  return (raw) => {
    if (!integerText.test(raw)) return { error: shape }
    if (raw.length > 20) return { error: raw.startsWith('-') ? shape : tooLarge }
    const big = BigInt(raw)
    if (big < minimum) return { error: shape }
    if (big > maximum) return { error: tooLarge }
    return { value: Number(raw) }
  }
}

/**
 * JSON numbers lose precision past 2^53, so the spec publishes no bound beyond it: an int64
 * parameter without `maximum` is bounded by its format, 2^63-1, applied here exactly.
 */
function bound(value: unknown, fallback: bigint): bigint {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value)) {
    throw new Error(`integer bound ${String(value)} is not exact in JSON; bound by format instead`)
  }
  return BigInt(value as number)
}
