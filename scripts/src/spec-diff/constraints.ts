/**
 * Enums, types and bounds of one schema node: does the edit narrow or widen the values it
 * allows? Direction decides what that means for a client (see `kindOf`).
 */
import { type Change, type Direction, type Effect, nonBreaking, valueSetChange } from './change.js'
import type { Json } from './load.js'

export function compareConstraints(
  base: Json,
  head: Json,
  direction: Direction,
  location: string,
): Change[] {
  return [
    ...compareTypes(base, head, direction, location),
    ...compareEnums(base, head, direction, location),
    ...compareExtensibleEnums(base, head, direction, location),
    ...compareBounds(base, head, direction, location),
    ...comparePatterns(base, head, direction, location),
    ...compareFormats(base, head, direction, location),
  ]
}

function typesOf(schema: Json): Set<string> | undefined {
  const declared = schema.type
  if (declared === undefined) return undefined
  const types = new Set(Array.isArray(declared) ? declared.map(String) : [String(declared)])
  if (schema.nullable === true) types.add('null')
  return types
}

/** Does `outer` allow every type `inner` allows? An `integer` is a `number`. */
function covers(outer: Set<string> | undefined, inner: Set<string> | undefined): boolean {
  if (outer === undefined) return true
  if (inner === undefined) return false
  return [...inner].every((t) => outer.has(t) || (t === 'integer' && outer.has('number')))
}

const showTypes = (types: Set<string> | undefined) => (types ? [...types].join(' | ') : 'any')

function compareTypes(base: Json, head: Json, direction: Direction, location: string): Change[] {
  const before = typesOf(base)
  const after = typesOf(head)
  const narrows = !covers(after, before)
  const widens = !covers(before, after)
  if (!narrows && !widens) return []
  const onlyNull =
    before &&
    after &&
    [...new Set([...before, ...after])].every(
      (t) => t === 'null' || (before.has(t) && after.has(t)),
    )
  if (onlyNull) {
    const nullable = after.has('null')
    const message = nullable
      ? `may now be null (type ${showTypes(before)} -> ${showTypes(after)})`
      : `may no longer be null (type ${showTypes(before)} -> ${showTypes(after)})`
    const rule = nullable ? 'became-nullable' : 'became-not-nullable'
    return [valueSetChange(direction, nullable ? 'widens' : 'narrows', rule, location, message)]
  }
  const effect: Effect = narrows && widens ? 'changes' : narrows ? 'narrows' : 'widens'
  const rule = { narrows: 'type-narrowed', widens: 'type-widened', changes: 'type-changed' }[effect]
  const message = `type ${showTypes(before)} -> ${showTypes(after)}`
  return [valueSetChange(direction, effect, rule, location, message)]
}

function enumOf(schema: Json): unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum
  return 'const' in schema ? [schema.const] : undefined
}

function compareEnums(base: Json, head: Json, direction: Direction, location: string): Change[] {
  const before = enumOf(base)
  const after = enumOf(head)
  if (before === undefined && after === undefined) return []
  if (before === undefined) {
    const message =
      'const' in head ? `const ${show(after)} added` : `values limited to ${show(after)}`
    return [valueSetChange(direction, 'narrows', 'enum-added', location, message)]
  }
  if (after === undefined) {
    const message =
      'const' in base ? `const ${show(before)} removed` : `no longer limited to ${show(before)}`
    return [valueSetChange(direction, 'widens', 'enum-removed', location, message)]
  }
  const has = (list: unknown[], value: unknown) =>
    list.some((v) => JSON.stringify(v) === JSON.stringify(value))
  const removed = before.filter((v) => !has(after, v))
  const added = after.filter((v) => !has(before, v))
  if ('const' in base && 'const' in head && removed.length > 0) {
    // One value for another: one change, breaking both ways, named by the side it breaks.
    const rule = direction === 'request' ? 'enum-value-removed' : 'enum-value-added'
    const message =
      direction === 'request'
        ? `const ${show(removed)} -> ${show(added)}: requests sending the old value are rejected`
        : `const ${show(removed)} -> ${show(added)}: clients expecting the old value see another`
    return [valueSetChange(direction, 'changes', rule, location, message)]
  }
  const changes: Change[] = []
  if (removed.length > 0) {
    const message =
      direction === 'request'
        ? `enum value(s) ${show(removed)} removed: requests sending them are rejected`
        : `enum value(s) ${show(removed)} removed: the response no longer sends them`
    changes.push(valueSetChange(direction, 'narrows', 'enum-value-removed', location, message))
  }
  if (added.length > 0) {
    const message =
      direction === 'request'
        ? `enum value(s) ${show(added)} added: requests may now send them`
        : `enum value(s) ${show(added)} added: clients that handle every documented value see an unknown one`
    changes.push(valueSetChange(direction, 'widens', 'enum-value-added', location, message))
  }
  return changes
}

/**
 * `x-extensible-enum` lists the values known today and warns clients that others may come, so
 * adding one breaks nobody; removing one still rejects requests that send it.
 */
function compareExtensibleEnums(
  base: Json,
  head: Json,
  direction: Direction,
  location: string,
): Change[] {
  const list = (schema: Json) =>
    Array.isArray(schema['x-extensible-enum']) ? schema['x-extensible-enum'].map(String) : []
  const before = list(base)
  const after = list(head)
  const removed = before.filter((v) => !after.includes(v))
  const added = after.filter((v) => !before.includes(v))
  const changes: Change[] = []
  if (removed.length > 0) {
    const message =
      direction === 'request'
        ? `x-extensible-enum value(s) ${show(removed)} removed: requests that send them are rejected`
        : `x-extensible-enum value(s) ${show(removed)} removed: the response no longer sends them`
    changes.push(
      valueSetChange(direction, 'narrows', 'extensible-enum-value-removed', location, message),
    )
  }
  if (added.length > 0) {
    changes.push({
      kind: 'non-breaking',
      rule: 'extensible-enum-value-added',
      location,
      message: `x-extensible-enum value(s) ${show(added)} added: clients were told to expect new ones`,
    })
  }
  return changes
}

const show = (values: unknown[] | undefined) =>
  (values ?? []).map((v) => JSON.stringify(v)).join(', ')

/** Keywords whose larger value allows fewer values (`min*`) or more values (`max*`). */
const LOWER_BOUNDS = [
  'minimum',
  'exclusiveMinimum',
  'minLength',
  'minItems',
  'minProperties',
  'minContains',
]
const UPPER_BOUNDS = [
  'maximum',
  'exclusiveMaximum',
  'maxLength',
  'maxItems',
  'maxProperties',
  'maxContains',
]

function compareBounds(base: Json, head: Json, direction: Direction, location: string): Change[] {
  const changes: Change[] = []
  for (const keyword of [...LOWER_BOUNDS, ...UPPER_BOUNDS, 'multipleOf']) {
    const before = base[keyword]
    const after = head[keyword]
    if (before === after) continue
    const effect = boundEffect(keyword, before, after)
    const rule = effect === 'widens' ? 'bound-relaxed' : 'bound-tightened'
    const message = `${keyword} ${before ?? 'none'} -> ${after ?? 'none'}`
    changes.push(valueSetChange(direction, effect, rule, location, message))
  }
  return changes
}

function boundEffect(keyword: string, before: unknown, after: unknown): Effect {
  if (before === undefined) return 'narrows'
  if (after === undefined) return 'widens'
  if (typeof before !== 'number' || typeof after !== 'number' || keyword === 'multipleOf') {
    return 'changes'
  }
  const raised = after > before
  return LOWER_BOUNDS.includes(keyword) === raised ? 'narrows' : 'widens'
}

/**
 * Whether every string matches `pattern` (`''`, `^`, `.*`, `^.*$`...), so it constrains nothing.
 * `^$` is not one: it allows the empty string alone.
 */
export const matchesEveryString = (pattern: string): boolean =>
  /^(?:\^?\.\*\$?|\^|\$|)$/.test(pattern)

const constraining = (pattern: unknown): string | undefined =>
  typeof pattern === 'string' && !matchesEveryString(pattern) ? pattern : undefined

/**
 * A `pattern` is judged where it reaches a client. In a request the service enforces it: adding
 * one or changing it to another rejects values clients send (patterns cannot be ordered, so a
 * changed one counts as both ways); removing it, or loosening it to one every string matches,
 * rejects nothing. In a response it describes what the service sends; generated types carry no
 * pattern and no client validates against it, so no change of it breaks one.
 */
function comparePatterns(base: Json, head: Json, direction: Direction, location: string): Change[] {
  if (base.pattern === head.pattern) return []
  const move = patternMove(base, head)
  const before = constraining(base.pattern)
  const after = constraining(head.pattern)
  if (before === after) {
    return [nonBreaking('pattern-changed', location, `${move}: neither constrains a value`)]
  }
  if (direction === 'response') {
    const why = 'a response pattern reaches no client (no generated type carries it)'
    return [nonBreaking('pattern-changed', location, `${move}: ${why}`)]
  }
  const effect: Effect =
    before === undefined ? 'narrows' : after === undefined ? 'widens' : 'changes'
  return [valueSetChange(direction, effect, 'pattern-changed', location, move)]
}

const patternMove = (base: Json, head: Json) =>
  `pattern ${JSON.stringify(base.pattern ?? null)} -> ${JSON.stringify(head.pattern ?? null)}`

/** `format` cannot be ordered: adding one narrows, dropping it widens, changing it does both. */
function compareFormats(base: Json, head: Json, direction: Direction, location: string): Change[] {
  const before = base.format
  const after = head.format
  if (before === after) return []
  const effect: Effect =
    before === undefined ? 'narrows' : after === undefined ? 'widens' : 'changes'
  const message = `format ${JSON.stringify(before ?? null)} -> ${JSON.stringify(after ?? null)}`
  return [valueSetChange(direction, effect, 'format-changed', location, message)]
}
