/**
 * `allOf`, `anyOf` and `oneOf`, compared branch by branch, and the `discriminator` that tells
 * their branches apart. A branch is matched by the component it was inlined from (`Dog`), else
 * by its content, else by its position; a matched branch that changed is compared like any
 * schema (`compare`), so an edit inside `Dog` is reported once, inside `Dog`, by the rule of what
 * changed. An added or removed branch is judged by direction: another `anyOf` or `oneOf` branch
 * lets more values through (a request accepts more: not breaking; a response may send more:
 * breaking), another `allOf` branch lets fewer through, and the reverse for a removed one.
 */
import { type Change, type Direction, type Effect, nonBreaking, valueSetChange } from './change.js'
import { componentName, isObject, type Json, keepComponentName } from './load.js'
import { objectAt } from './model.js'

export const COMPOSITIONS = ['allOf', 'anyOf', 'oneOf'] as const
type Composition = (typeof COMPOSITIONS)[number]

const RULES: Record<Effect, string> = {
  narrows: 'constraint-narrowed',
  widens: 'constraint-widened',
  changes: 'constraint-changed',
}

/** Compares two branches (or other subschemas) at `path`, inside the schema being compared. */
export type CompareAt = (base: unknown, head: unknown, path: string) => Change[]

interface Branch {
  schema: Json
  /** The component it was inlined from, else its position. */
  label: string
  print: string
}

export interface CompositionContext {
  direction: Direction
  location: string
  /** The schema's own path (`owner`, `[]`), to which a branch adds `allOf[Dog]`. */
  path: string
  fingerprint: (node: unknown) => string
  compare: CompareAt
}

export function compareCompositions(base: Json, head: Json, context: CompositionContext): Change[] {
  return [
    ...COMPOSITIONS.flatMap((keyword) => compareComposition(keyword, base, head, context)),
    ...compareDiscriminators(base.discriminator, head.discriminator, context),
  ]
}

function branchesOf(list: unknown, fingerprint: (node: unknown) => string): Branch[] {
  return (Array.isArray(list) ? list : []).map((item, i) => {
    const schema = isObject(item) ? item : {}
    return { schema, label: componentName(item) ?? String(i), print: fingerprint(schema) }
  })
}

/** An `allOf` branch of nothing but descriptions and `x-` keys constrains nothing. */
const annotationOnly = (branch: Branch) => branch.print === '{}'

function compareComposition(
  keyword: Composition,
  base: Json,
  head: Json,
  { direction, location, path, fingerprint, compare }: CompositionContext,
): Change[] {
  if (fingerprint(base[keyword]) === fingerprint(head[keyword])) return []
  const before = branchesOf(base[keyword], fingerprint)
  const after = branchesOf(head[keyword], fingerprint)
  const change = (effect: Effect, what: string) =>
    valueSetChange(direction, effect, RULES[effect], location, `${keyword} ${what}`)
  const counted = (list: Branch[]) =>
    keyword === 'allOf' ? list.filter((b) => !annotationOnly(b)) : list
  // The keyword itself appears or goes: an `anyOf` where there was none still limits the values.
  if (before.length === 0 || after.length === 0) {
    const added = before.length === 0
    if (counted(added ? after : before).length === 0) return []
    const effect: Effect = added ? 'narrows' : 'widens'
    const names = (added ? after : before).map((b) => b.label).join(', ')
    // `{type: string}` -> `{oneOf: [{type: string}]}`: oasdiff's `...-wrapped-in-one-of`.
    const wraps = added && keyword === 'oneOf' && after.some((b) => b.print === fingerprint(base))
    const what = wraps ? 'wraps the schema' : added ? 'added' : 'removed'
    return [change(effect, `${what} (${names}): ${says(effect)}`)]
  }
  const { pairs, added, removed } = matchBranches(before, after)
  const changes: Change[] = []
  const more: Effect = keyword === 'allOf' ? 'narrows' : 'widens'
  const fewer: Effect = keyword === 'allOf' ? 'widens' : 'narrows'
  if (counted(added).length > 0) {
    const names = counted(added)
      .map((b) => b.label)
      .join(', ')
    changes.push(change(more, `gained ${names}: ${says(more)}`))
  }
  if (counted(removed).length > 0) {
    const names = counted(removed)
      .map((b) => b.label)
      .join(', ')
    changes.push(change(fewer, `lost ${names}: ${says(fewer)}`))
  }
  for (const [old, next] of pairs) {
    const at = `${keyword}[${next.label}]`
    changes.push(...compare(old.schema, next.schema, path === '' ? at : `${path}.${at}`))
  }
  return changes
}

const says = (effect: Effect) =>
  ({
    narrows: 'fewer values are valid',
    widens: 'more values are valid',
    changes: 'other values are valid',
  })[effect]

/**
 * Pairs each branch of `before` with its counterpart in `after`: the same component, else the
 * same content, else the same position among those left; the rest were added or removed.
 */
function matchBranches(
  before: Branch[],
  after: Branch[],
): { pairs: [Branch, Branch][]; added: Branch[]; removed: Branch[] } {
  const pairs: [Branch, Branch][] = []
  const left = new Set(before)
  const right = new Set(after)
  const take = (same: (a: Branch, b: Branch) => boolean) => {
    for (const a of left) {
      const b = [...right].find((candidate) => same(a, candidate))
      if (b === undefined) continue
      pairs.push([a, b])
      left.delete(a)
      right.delete(b)
    }
  }
  const named = (b: Branch) => !/^\d+$/.test(b.label)
  take((a, b) => named(a) && a.label === b.label)
  take((a, b) => a.print === b.print)
  take((a, b) => !named(a) && !named(b) && before.indexOf(a) === after.indexOf(b))
  return { pairs, added: [...right], removed: [...left] }
}

/**
 * The discriminator names the property whose value picks a branch; validity stays with the
 * branches, so adding or removing it changes no value. Another property, or a mapping value that
 * now picks another branch, sends the same document elsewhere: breaking both ways. A new mapping
 * value is one more a request may send or a response may carry; a removed one, one fewer.
 * @see https://spec.openapis.org/oas/v3.1.0#discriminator-object
 */
function compareDiscriminators(
  base: unknown,
  head: unknown,
  { direction, location, fingerprint }: CompositionContext,
): Change[] {
  if (fingerprint(base) === fingerprint(head)) return []
  if (!isObject(base) || !isObject(head)) {
    const what = isObject(head) ? 'added' : 'removed'
    const name = (isObject(head) ? head : isObject(base) ? base : {}).propertyName
    return [
      nonBreaking(
        `discriminator-${what}`,
        location,
        `discriminator ${String(name)} ${what}: it names the branch, no value changes`,
      ),
    ]
  }
  const changes: Change[] = []
  const change = (effect: Effect, message: string) =>
    valueSetChange(direction, effect, 'discriminator-changed', location, message)
  if (base.propertyName !== head.propertyName) {
    const message = `discriminator property ${String(base.propertyName)} -> ${String(head.propertyName)}: documents pick their branch by another property`
    changes.push(change('changes', message))
  }
  const was = isObject(base.mapping) ? base.mapping : {}
  const is = isObject(head.mapping) ? head.mapping : {}
  const added = Object.keys(is).filter((value) => !(value in was))
  const removed = Object.keys(was).filter((value) => !(value in is))
  const moved = Object.keys(was).filter((value) => value in is && was[value] !== is[value])
  if (added.length > 0) {
    changes.push(change('widens', `discriminator mapping added ${added.join(', ')}`))
  }
  if (removed.length > 0) {
    changes.push(change('narrows', `discriminator mapping deleted ${removed.join(', ')}`))
  }
  if (moved.length > 0) {
    const message = `discriminator mapping changed ${moved.join(', ')}: the value now picks another branch`
    changes.push(change('changes', message))
  }
  return changes
}

/** Keywords an `allOf` branch may carry and still be the object around it, once lifted. */
const LIFTED = new Set(['type', 'properties', 'required'])

/**
 * The schema as a client sees it: an object's `allOf` branches that only add properties and
 * `required` names (`Dog`, `Cat`) are the object's own, so their properties are lifted into it
 * and compared where they reach a client, one by one. A branch with any other assertion keeps
 * it as a branch (`allOf[Dog]`); a property two branches declare differently, `additionalProperties`
 * on either side, or a type other than `object` leave the branch as it is.
 */
export function liftAllOf(schema: Json, fingerprint: (node: unknown) => string): Json {
  if (!Array.isArray(schema.allOf) || 'additionalProperties' in schema) return schema
  if (schema.type !== undefined && schema.type !== 'object') return schema
  const properties: Json = { ...objectAt(schema, 'properties') }
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : [])
  const kept: unknown[] = []
  let type = schema.type
  for (const raw of schema.allOf) {
    const branch = isObject(raw) ? liftAllOf(raw, fingerprint) : undefined
    const own = branch === undefined ? {} : objectAt(branch, 'properties')
    const clash = Object.entries(own).some(
      ([name, property]) =>
        name in properties && fingerprint(properties[name]) !== fingerprint(property),
    )
    const liftable =
      branch !== undefined &&
      !clash &&
      !('additionalProperties' in branch) &&
      (branch.type === undefined || branch.type === 'object')
    if (!liftable) {
      kept.push(raw)
      continue
    }
    Object.assign(properties, own)
    for (const name of Array.isArray(branch.required) ? branch.required : [])
      required.add(String(name))
    if (branch.type === 'object') type = 'object'
    const rest = Object.fromEntries(Object.entries(branch).filter(([key]) => !LIFTED.has(key)))
    if (fingerprint(rest) !== '{}') kept.push(keepComponentName(rest, raw))
  }
  const { allOf: _, ...lifted } = schema
  return {
    ...lifted,
    ...(type !== undefined && { type }),
    ...(Object.keys(properties).length > 0 && { properties }),
    ...(required.size > 0 && { required: [...required] }),
    ...(kept.length > 0 && { allOf: kept }),
  }
}
