/**
 * JSON Schema assertions beyond types, enums, bounds and composition (`compositions.ts`): `not`,
 * conditionals (`if`/`then`/`else`), arrays (`contains`, `prefixItems`, `unevaluatedItems`),
 * objects (`dependentRequired`, `dependentSchemas`, `patternProperties`, `propertyNames`,
 * `unevaluatedProperties`) and string content (`contentSchema`, `contentMediaType`,
 * `contentEncoding`). An added assertion allows fewer values and a removed one more; a changed
 * one is classified where the keyword tells which way (names of `dependentRequired`), else as a
 * change both ways.
 */
import { type Change, type Direction, type Effect, valueSetChange } from './change.js'
import { isObject, type Json } from './load.js'
import { unionKeys } from './model.js'

/** Keywords whose every change is judged below; `schemas.ts` leaves them to this module. */
export const ASSERTIONS = [
  'not',
  'if',
  'then',
  'else',
  'contains',
  'prefixItems',
  'unevaluatedItems',
  'dependentRequired',
  'dependentSchemas',
  'patternProperties',
  'propertyNames',
  'unevaluatedProperties',
  'contentSchema',
  'contentMediaType',
  'contentEncoding',
] as const

const RULES: Record<Effect, string> = {
  narrows: 'constraint-narrowed',
  widens: 'constraint-widened',
  changes: 'constraint-changed',
}

const SAYS: Record<Effect, string> = {
  narrows: 'fewer values are valid',
  widens: 'more values are valid',
  changes: 'other values are valid',
}

export function compareAssertions(
  base: Json,
  head: Json,
  direction: Direction,
  location: string,
  fingerprint: (node: unknown) => string,
): Change[] {
  const changes: Change[] = []
  for (const keyword of ASSERTIONS) {
    const before = base[keyword]
    const after = head[keyword]
    if (fingerprint(before) === fingerprint(after)) continue
    const [effect, what] = effectOf(keyword, before, after, base, head)
    const message = `${keyword} ${what}: ${SAYS[effect]}`
    changes.push(valueSetChange(direction, effect, RULES[effect], location, message))
  }
  return changes
}

function effectOf(
  keyword: (typeof ASSERTIONS)[number],
  before: unknown,
  after: unknown,
  base: Json,
  head: Json,
): [Effect, string] {
  // `patternProperties` exempts the names it matches from `additionalProperties: false`.
  const opensClosed =
    keyword === 'patternProperties' &&
    (base.additionalProperties === false || head.additionalProperties === false)
  // `if` only selects between `then` and `else`; content keywords name an encoding.
  const neutral =
    keyword === 'if' || keyword === 'contentMediaType' || keyword === 'contentEncoding'
  if (before === undefined) return [opensClosed || neutral ? 'changes' : 'narrows', 'added']
  if (after === undefined) return [opensClosed || neutral ? 'changes' : 'widens', 'removed']
  if (keyword === 'prefixItems' && Array.isArray(before) && Array.isArray(after)) {
    // Positions left or gained at the end are now checked by `items`, or no longer are.
    const [short, long] = before.length < after.length ? [before, after] : [after, before]
    const prefix = short.every((item, i) => JSON.stringify(item) === JSON.stringify(long[i]))
    const count = long.length - short.length
    if (prefix && count > 0) {
      return ['changes', `${before.length > after.length ? 'lost' : 'gained'} ${count} item(s)`]
    }
  }
  if (keyword === 'dependentRequired' && isObject(before) && isObject(after)) {
    const effect = dependentEffect(before, after)
    if (effect !== undefined) return [effect, 'changed']
  }
  return ['changes', 'changed']
}

/** More names required by the same properties narrows; fewer widens. */
function dependentEffect(before: Json, after: Json): Effect | undefined {
  let narrows = false
  let widens = false
  for (const name of unionKeys(before, after)) {
    const was = new Set(Array.isArray(before[name]) ? before[name].map(String) : [])
    const is = new Set(Array.isArray(after[name]) ? after[name].map(String) : [])
    if ([...is].some((n) => !was.has(n))) narrows = true
    if ([...was].some((n) => !is.has(n))) widens = true
  }
  if (narrows && widens) return undefined
  return narrows ? 'narrows' : widens ? 'widens' : undefined
}
