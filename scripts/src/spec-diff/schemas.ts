/**
 * Compares two schemas in one direction: object properties (removed, added, required or not),
 * array items, then each node's enums, types and bounds (`constraints.ts`).
 */
import { ASSERTIONS, compareAssertions } from './assertions.js'
import { breaking, type Change, type Direction, nonBreaking, withOasdiffId } from './change.js'
import { COMPOSITIONS, compareCompositions, liftAllOf } from './compositions.js'
import { compareConstraints } from './constraints.js'
import { deprecatedRemoval } from './lifecycle.js'
import { isObject, type Json } from './load.js'
import { objectAt, unionKeys } from './model.js'
import { comparePropertyContract } from './property-contract.js'

/** Keywords that document a schema without changing the values it allows. */
const ANNOTATIONS = new Set([
  'description',
  'summary',
  'title',
  'example',
  'examples',
  'default',
  'externalDocs',
  'xml',
  '$comment',
])

/** Keywords compared by the rules below; any other difference is reported as unclassified. */
const MODELLED = new Set([
  'type',
  'nullable',
  'enum',
  'const',
  'properties',
  'required',
  'items',
  'additionalProperties',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'multipleOf',
  'deprecated',
  'readOnly',
  'writeOnly',
  'x-sunset',
  'x-stability-level',
  'x-extensible-enum',
  'minContains',
  'maxContains',
  'discriminator',
  ...COMPOSITIONS,
  ...ASSERTIONS,
])

/** Extensions that change what a client may rely on; other `x-` keys are ignored. */
const TRACKED_EXTENSIONS = new Set(['x-sunset', 'x-stability-level', 'x-extensible-enum'])
const ignored = (key: string) =>
  ANNOTATIONS.has(key) || (key.startsWith('x-') && !TRACKED_EXTENSIONS.has(key))

/**
 * Property names an enclosing schema requires of this one: a branch of `allOf` (or `anyOf`,
 * `oneOf`) is the same object as the schema around it, whose `required` and whose `allOf`
 * branches' `required` hold for it too.
 */
export interface Carried {
  base: ReadonlySet<string>
  head: ReadonlySet<string>
}

/** The names an object schema requires: its `required` and its `allOf` branches', recursively. */
function requiredOf(schema: Json): Set<string> {
  const names = new Set(Array.isArray(schema.required) ? schema.required.map(String) : [])
  for (const branch of Array.isArray(schema.allOf) ? schema.allOf : []) {
    if (isObject(branch)) for (const name of requiredOf(branch)) names.add(name)
  }
  return names
}

/**
 * Items are compared where both sides may be arrays: a schema that became an array (or stopped
 * being one) is one type change, not also a change of what its items allow.
 */
const mayBeArray = (schema: Json) =>
  schema.type === undefined ||
  schema.type === 'array' ||
  (Array.isArray(schema.type) && schema.type.includes('array'))

/** Does what the enclosing schema requires differ for one of this schema's properties? */
function carriedDiffers(carried: Carried | undefined, base: Json, head: Json): boolean {
  if (carried === undefined) return false
  const names = unionKeys(objectAt(base, 'properties'), objectAt(head, 'properties'))
  return names.some((name) => carried.base.has(name) !== carried.head.has(name))
}

/**
 * @param where the schema's place, e.g. `POST /pets request body application/json`
 * @param path the position inside it: `status`, `owner.name`, `[]` for array items,
 *   `allOf[Dog]` for a branch
 * @param carried what the schema around it requires, for a branch of a composition
 */
export function compareSchemas(
  base: unknown,
  head: unknown,
  direction: Direction,
  where: string,
  path = '',
  now = new Date(),
  carried?: Carried,
): Change[] {
  const before = liftAllOf(isObject(base) ? base : {}, fingerprint)
  const after = liftAllOf(isObject(head) ? head : {}, fingerprint)
  const location = path === '' ? where : `${where}: ${path}`
  if (fingerprint(before) === fingerprint(after) && !carriedDiffers(carried, before, after)) {
    return []
  }
  const own: Carried = { base: requiredOf(before), head: requiredOf(after) }
  const required: Carried = {
    base: new Set([...own.base, ...(carried?.base ?? [])]),
    head: new Set([...own.head, ...(carried?.head ?? [])]),
  }
  const branch = (old: unknown, next: unknown, at: string) =>
    compareSchemas(old, next, direction, where, at, now, required)
  return [
    ...compareUnmodelled(before, after, location),
    ...compareConstraints(before, after, direction, location),
    ...compareAssertions(before, after, direction, location, fingerprint),
    ...compareCompositions(before, after, {
      direction,
      location,
      path,
      fingerprint,
      compare: branch,
    }),
    ...compareProperties(before, after, direction, where, path, now, required),
    ...compareRequiredOnly(before, after, direction, where, path, own),
    ...compareAdditionalProperties(before, after, direction, where, path, now),
    ...(mayBeArray(before) && mayBeArray(after)
      ? compareSchemas(before.items, after.items, direction, where, `${path}[]`, now)
      : []),
  ]
}

function compareProperties(
  base: Json,
  head: Json,
  direction: Direction,
  where: string,
  path: string,
  now: Date,
  required: Carried,
): Change[] {
  const changes: Change[] = []
  const before = objectAt(base, 'properties')
  const after = objectAt(head, 'properties')
  const requiredBefore = required.base
  const requiredAfter = required.head
  const renames = probableRenames(before, after, requiredAfter)
  const renamedTo = new Set(renames.values())
  for (const name of unionKeys(before, after)) {
    const at = path === '' ? name : `${path}.${name}`
    const location = `${where}: ${at}`
    const newName = renames.get(name)
    if (newName !== undefined) {
      changes.push(renamed(name, newName, direction, head, `${location} -> ${newName}`))
    } else if (renamedTo.has(name)) {
      // Reported with the property it replaces.
    } else if (!(name in after)) {
      const was = requiredBefore.has(name)
      changes.push(
        unseen(before[name], direction, name, 'removed', location, was) ??
          deprecatedRemoval(objectAt(before, name), 'property', name, location, now) ??
          withOasdiffId(
            breaking('property-removed', location, removedMessage(name, direction, head)),
            direction === 'response' && was ? 'response-required-property-removed' : undefined,
          ),
      )
    } else if (!(name in before)) {
      const is = requiredAfter.has(name)
      changes.push(
        unseen(after[name], direction, name, 'added', location, is) ??
          addedProperty(name, direction, is, location, objectAt(after, name)),
      )
    } else {
      const was = requiredBefore.has(name)
      const is = requiredAfter.has(name)
      const hidden =
        unseen(before[name], direction, name, '', '', was) &&
        unseen(after[name], direction, name, '', '', is)
      const [old, next] = [objectAt(before, name), objectAt(after, name)]
      if (was !== is && !hidden) changes.push(requiredChange(name, direction, is, location, next))
      changes.push(...comparePropertyContract(old, next, direction, name, location, now, is))
      changes.push(...compareSchemas(old, next, direction, where, at, now))
    }
  }
  return changes
}

/**
 * A name `required` without a property schema of its own (`required: [tag]` and no `tag` in
 * `properties`) still makes the object carry it.
 */
function compareRequiredOnly(
  base: Json,
  head: Json,
  direction: Direction,
  where: string,
  path: string,
  required: Carried,
): Change[] {
  const declared = new Set(unionKeys(objectAt(base, 'properties'), objectAt(head, 'properties')))
  return [...new Set([...required.base, ...required.head])]
    .filter((name) => !declared.has(name) && required.base.has(name) !== required.head.has(name))
    .map((name) => {
      const at = path === '' ? name : `${path}.${name}`
      return requiredChange(name, direction, required.head.has(name), `${where}: ${at}`)
    })
}

/**
 * A `readOnly` property is no part of a request and a `writeOnly` one no part of a response
 * (OpenAPI 3.1 §4.8.24.3): adding, removing or requiring one there reaches no client, as a
 * non-breaking change; `undefined` for a property the direction carries.
 */
function unseen(
  schema: unknown,
  direction: Direction,
  name: string,
  what: 'added' | 'removed' | '',
  location: string,
  required: boolean,
): Change | undefined {
  const keyword = direction === 'request' ? 'readOnly' : 'writeOnly'
  if (!isObject(schema) || schema[keyword] !== true) return undefined
  const change = nonBreaking(
    `property-${what}`,
    location,
    `${name} was ${what}; it is ${keyword}, so no ${direction} carries it`,
  )
  const id = `response-${required ? 'required' : 'optional'}-write-only-property-${what}`
  return withOasdiffId(change, direction === 'response' ? id : undefined)
}

/**
 * Removed properties that a new required one of the same schema probably replaces, old name to
 * new; only one-to-one matches, since two candidates leave a person to tell which is which.
 */
function probableRenames(
  before: Json,
  after: Json,
  requiredAfter: ReadonlySet<string>,
): Map<string, string> {
  const removed = Object.keys(before).filter((name) => !(name in after))
  const added = Object.keys(after).filter((name) => !(name in before) && requiredAfter.has(name))
  const matching = (schema: unknown, names: string[], of: Json) =>
    names.filter((name) => same(strip(schema), strip(of[name])))
  const renames = new Map<string, string>()
  for (const old of removed) {
    const [candidate, ...others] = matching(before[old], added, after)
    if (candidate === undefined || others.length > 0) continue
    if (matching(after[candidate], removed, before).length === 1) renames.set(old, candidate)
  }
  return renames
}

/**
 * Still breaking (clients of the released spec use the old name), with the route that is not:
 * add the new property beside the old one, deprecate the old, and remove it after its sunset.
 */
function renamed(
  old: string,
  name: string,
  direction: Direction,
  head: Json,
  location: string,
): Change {
  const added = direction === 'request' ? `add ${name} as optional` : `send ${name}`
  return breaking(
    'property-renamed',
    location,
    `${old} -> ${name} looks like a rename (same schema, ${name} required): ` +
      `${removedMessage(old, direction, head)}. Without breaking clients: ${added} beside ${old}, ` +
      `mark ${old} deprecated, and remove it after its sunset`,
  )
}

function removedMessage(name: string, direction: Direction, head: Json): string {
  if (direction === 'response') return `${name} was removed: clients reading it get nothing`
  return head.additionalProperties === false
    ? `${name} was removed: requests that send it are rejected`
    : `${name} was removed: the service ignores it where clients still send it`
}

function addedProperty(
  name: string,
  direction: Direction,
  required: boolean,
  location: string,
  schema: Json,
): Change {
  if (direction === 'request' && required) {
    const added = breaking(
      'required-property-added',
      location,
      `${name} was added as required: requests without it are rejected`,
    )
    return withOasdiffId(added, withDefault(schema, 'new-required-request-property', location))
  }
  const added = nonBreaking(
    'property-added',
    location,
    direction === 'request' ? `${name} was added as optional` : `${name} was added`,
  )
  const id = direction === 'response' && required ? 'response-required-property-added' : undefined
  return withOasdiffId(added, id)
}

/** oasdiff names a required request-body property that declares a `default` apart. */
const withDefault = (schema: Json, id: string, location: string) =>
  'default' in schema && !/ header parameter /.test(location) ? `${id}-with-default` : undefined

function requiredChange(
  name: string,
  direction: Direction,
  required: boolean,
  location: string,
  schema: Json = {},
): Change {
  if (required) {
    return direction === 'request'
      ? withOasdiffId(
          breaking(
            'property-became-required',
            location,
            `${name} is now required: requests that omit it are rejected`,
          ),
          withDefault(schema, 'request-property-became-required', location),
        )
      : nonBreaking('property-became-required', location, `${name} is now always sent`)
  }
  return direction === 'request'
    ? nonBreaking('property-became-optional', location, `${name} may now be omitted`)
    : breaking(
        'property-became-optional',
        location,
        `${name} is no longer always sent: clients that rely on it get nothing`,
      )
}

/**
 * Closing an object to unknown properties rejects requests that carried extra ones; a schema for
 * them (`additionalProperties: { type: integer }`) is compared like any other, at `path{*}`.
 */
function compareAdditionalProperties(
  base: Json,
  head: Json,
  direction: Direction,
  where: string,
  path: string,
  now: Date,
): Change[] {
  const location = path === '' ? where : `${where}: ${path}`
  const closedBefore = base.additionalProperties === false
  const closedAfter = head.additionalProperties === false
  if (closedBefore !== closedAfter) {
    if (direction !== 'request') return []
    return closedAfter
      ? [breaking('additional-properties-closed', location, 'unknown properties are now rejected')]
      : [
          nonBreaking(
            'additional-properties-opened',
            location,
            'unknown properties are now allowed',
          ),
        ]
  }
  if (closedBefore) return []
  const schema = (node: Json) =>
    isObject(node.additionalProperties) ? node.additionalProperties : {}
  return compareSchemas(schema(base), schema(head), direction, where, `${path}{*}`, now)
}

/**
 * Keywords no rule names (`discriminator`, `$defs`, `$anchor`, unknown ones) are
 * not classified: a difference there is reported as breaking so that a person decides, rather
 * than passing unnoticed.
 */
function compareUnmodelled(base: Json, head: Json, location: string): Change[] {
  const keys = unionKeys(base, head).filter((k) => !MODELLED.has(k) && !ignored(k))
  const differing = keys.filter((k) => !same(strip(base[k]), strip(head[k])))
  if (differing.length === 0) return []
  return [
    breaking(
      'schema-changed',
      location,
      `${differing.join(', ')} changed in a way spec:diff does not classify: review it by hand`,
    ),
  ]
}

/** The schema without annotations and `x-` extensions, for equality checks. */
function strip(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strip)
  if (!isObject(node)) return node
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k]) => !ignored(k))
      .map(([k, v]) => [k, k === 'properties' ? stripEach(v) : strip(v)]),
  )
}

/** Property names may collide with annotation keywords (a property called `description`). */
const stripEach = (properties: unknown) =>
  isObject(properties)
    ? Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, strip(v)]))
    : properties

export const same = (a: unknown, b: unknown): boolean => canonical(a) === canonical(b)

/**
 * `canonical(strip(node))` in effect, kept per object: resolved specs share the nodes of a `$ref`
 * (`resolveRefs`), so each schema of a large spec is printed once, not at every level of every use.
 */
const fingerprints = new WeakMap<object, string>()

function fingerprint(node: unknown, names = false): string {
  if (typeof node !== 'object' || node === null) return JSON.stringify(node) ?? 'undefined'
  const known = names ? undefined : fingerprints.get(node)
  if (known !== undefined) return known
  let text: string
  if (Array.isArray(node)) {
    text = `[${node.map((item) => fingerprint(item)).join(',')}]`
  } else {
    const entries = Object.entries(node as Json)
      .filter(([k]) => names || !ignored(k))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${fingerprint(v, !names && k === 'properties')}`)
    text = `{${entries.join(',')}}`
  }
  if (!names) fingerprints.set(node, text)
  return text
}

const canonical = (value: unknown): string =>
  JSON.stringify(value, (_, v) =>
    isObject(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  )
