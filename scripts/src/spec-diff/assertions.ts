/**
 * JSON Schema assertions beyond types, enums and bounds: composition (`allOf`, `anyOf`, `oneOf`,
 * `not`), conditionals (`if`/`then`/`else`), arrays (`contains`, `prefixItems`,
 * `unevaluatedItems`), objects (`dependentRequired`, `dependentSchemas`, `patternProperties`,
 * `propertyNames`, `unevaluatedProperties`) and string content (`contentSchema`,
 * `contentMediaType`, `contentEncoding`). An added assertion allows fewer values and a removed one
 * more; a changed one is classified where the keyword tells which way (branches of `allOf` or
 * `anyOf`, names of `dependentRequired`), else as a change both ways.
 */
import { type Change, type Direction, type Effect, valueSetChange } from './change.js'
import { isObject, type Json } from './load.js'
import { unionKeys } from './model.js'

/** Keywords whose every change is judged below; `schemas.ts` leaves them to this module. */
export const ASSERTIONS = [
  'allOf',
  'anyOf',
  'oneOf',
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
    const [effect, what] = effectOf(keyword, before, after, base, head, fingerprint)
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
  fingerprint: (node: unknown) => string,
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
  if (keyword === 'allOf' || keyword === 'anyOf') {
    const [added, removed] = branchDifference(before, after, fingerprint)
    // More `allOf` branches must all hold; more `anyOf` branches each may.
    const more: Effect = keyword === 'allOf' ? 'narrows' : 'widens'
    const fewer: Effect = keyword === 'allOf' ? 'widens' : 'narrows'
    if (added > 0 && removed === 0) return [more, `gained ${added} branch(es)`]
    if (removed > 0 && added === 0) return [fewer, `lost ${removed} branch(es)`]
  }
  if (keyword === 'dependentRequired' && isObject(before) && isObject(after)) {
    const effect = dependentEffect(before, after)
    if (effect !== undefined) return [effect, 'changed']
  }
  return ['changes', 'changed']
}

/** How many branches `after` has that `before` has not, and the other way round. */
function branchDifference(
  before: unknown,
  after: unknown,
  fingerprint: (node: unknown) => string,
): [added: number, removed: number] {
  const prints = (list: unknown) => (Array.isArray(list) ? list.map(fingerprint) : [])
  const was = prints(before)
  const is = prints(after)
  return [is.filter((p) => !was.includes(p)).length, was.filter((p) => !is.includes(p)).length]
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
