/**
 * The oasdiff rule id of a change, for the JSON report: one id, naming what changed at the place
 * it changed and on the side it changed (a request-side enum value is `request-...`, never a
 * `response-...` id), or none where oasdiff has no rule for it. It is built from the change's
 * place (parameter, its property, request body or property, response header, body or property,
 * operation), its rule and the keyword or action its message names, and kept only when oasdiff
 * has a rule of that id (`oasdiff-rules.ts`, every level). A check that knows more than the
 * place shows (a whole path removed, a property that was required) sets `Change.oasdiff`.
 * `oasdiff-parity.test.ts` checks that each fixture's change names its oasdiff id.
 */
import type { Change } from './change.js'
import { matchesEveryString } from './constraints.js'
import { OASDIFF_ERR_RULES, OASDIFF_INFO_RULES, OASDIFF_WARN_RULES } from './oasdiff-rules.js'

const KNOWN = new Set([...OASDIFF_ERR_RULES, ...OASDIFF_WARN_RULES, ...OASDIFF_INFO_RULES])

type Kind =
  | 'parameter'
  | 'request-body'
  | 'response-header'
  | 'response-body'
  | 'response-status'
  | 'security'
  | 'operation'

interface Place {
  kind: Kind
  /** Inside the schema: a property (`status`, `owner.name`, `[]`), not its root. */
  inner: boolean
  /** A header parameter, whose object properties oasdiff names `request-header-property`. */
  header: boolean
}

function placeOf(location: string): Place {
  const [where = '', inner] = location.split(': ')
  const place = (kind: Kind): Place => ({
    kind,
    inner: inner !== undefined && inner !== '',
    header: / header parameter /.test(where),
  })
  if (/ (query|path|header|cookie) parameter /.test(where)) return place('parameter')
  if (where.endsWith(' security')) return place('security')
  if (/ request body/.test(where)) return place('request-body')
  if (/ response \S+ header /.test(where)) return place('response-header')
  if (/ response \S+ \S+\/\S+/.test(where)) return place('response-body')
  if (/ response \S+$/.test(where)) return place('response-status')
  return place('operation')
}

/** The id prefixes of a place, most specific first. */
function prefixesOf({ kind, inner, header }: Place): string[] {
  switch (kind) {
    case 'parameter':
      if (!inner) return ['request-parameter']
      return header
        ? ['request-header-property', 'request-parameter-property']
        : ['request-parameter-property']
    case 'request-body':
      return inner ? ['request-property'] : ['request-body']
    case 'response-header':
      return ['response-header']
    case 'response-body':
      return inner ? ['response-property'] : ['response-body']
    default:
      return []
  }
}

const BOUND_SLUGS: Record<string, string> = {
  minimum: 'min',
  maximum: 'max',
  exclusiveMinimum: 'exclusive-min',
  exclusiveMaximum: 'exclusive-max',
  minLength: 'min-length',
  maxLength: 'max-length',
  minItems: 'min-items',
  maxItems: 'max-items',
  minContains: 'min-contains',
  maxContains: 'max-contains',
}

/** How oasdiff's ids name the keywords of `compositions.ts` and `assertions.ts`. */
// A Map: a `then` key would make an object a thenable.
const ASSERTION_SLUGS = new Map([
  ['allOf', 'all-of'],
  ['anyOf', 'any-of'],
  ['oneOf', 'one-of'],
  ['if', 'if'],
  ['then', 'then'],
  ['else', 'else'],
  ['contains', 'contains'],
  ['prefixItems', 'prefix-items'],
  ['unevaluatedItems', 'unevaluated-items'],
  ['unevaluatedProperties', 'unevaluated-properties'],
  ['dependentRequired', 'dependent-required'],
  ['dependentSchemas', 'dependent-schema'],
  ['patternProperties', 'pattern-property'],
  ['propertyNames', 'property-names'],
  ['contentSchema', 'content-schema'],
  ['contentMediaType', 'content-media-type'],
  ['contentEncoding', 'content-encoding'],
])

/** `maxLength 10 -> 5`: `max-length-decreased`; `maxLength none -> 10`: `max-length-set`. */
function boundSuffix(message: string): string | undefined {
  const [keyword = '', from, , to] = message.split(' ')
  const slug = BOUND_SLUGS[keyword]
  if (slug === undefined) return undefined
  if (from === 'none') return `${slug}-set`
  if (to === 'none') return `${slug}-unset`
  return `${slug}-${Number(to) > Number(from) ? 'increased' : 'decreased'}`
}

/** `anyOf gained Rabbit: ...`: `any-of-added`. */
function assertionSuffix(message: string): string | undefined {
  const [keyword = '', action = ''] = message.split(/[ :]+/)
  const slug = ASSERTION_SLUGS.get(keyword)
  if (slug === undefined) return undefined
  if (keyword === 'contentMediaType' || keyword === 'contentEncoding') return `${slug}-changed`
  if (action.startsWith('wrap')) return 'wrapped-in-one-of'
  const verb = { gained: 'added', added: 'added', lost: 'removed', removed: 'removed' }[action]
  return `${slug}-${verb ?? 'changed'}`
}

/** The suffixes a change of schema values takes, most specific first. */
function valueSuffixes(change: Change, place: Place): string[] {
  const { rule, message } = change
  const side = place.kind === 'parameter' || place.kind === 'request-body' ? 'request' : 'response'
  const types = /^type (.*) -> (.*)$/.exec(message)
  const list = types !== null && (types[1]?.includes('|') || types[2]?.includes('|'))
  const isConst = /^const /.test(message)
  switch (rule) {
    case 'type-narrowed':
      return list ? ['list-of-types-narrowed'] : ['type-specialized', 'type-changed']
    case 'type-widened':
      return list ? ['list-of-types-widened'] : ['type-generalized']
    case 'type-changed':
      return ['type-changed']
    case 'became-nullable':
    case 'became-not-nullable':
      return [rule]
    case 'enum-added':
      return isConst ? ['const-added'] : ['became-enum']
    case 'enum-removed':
      return isConst ? ['const-removed'] : []
    case 'enum-value-added':
      return isConst ? ['const-changed'] : ['enum-value-added']
    case 'enum-value-removed':
      return isConst ? ['const-changed'] : ['enum-value-removed']
    case 'extensible-enum-value-removed':
      return ['x-extensible-enum-value-removed']
    case 'bound-tightened':
    case 'bound-relaxed':
      return [boundSuffix(message) ?? '']
    case 'pattern-changed': {
      const shown = '(null|"(?:[^"\\\\]|\\\\.)*")'
      const [, before, after] = new RegExp(`^pattern ${shown} -> ${shown}`).exec(message) ?? []
      if (before === 'null') return ['pattern-added']
      if (after === 'null') return ['pattern-removed']
      return side === 'request' && after !== undefined && matchesEveryString(JSON.parse(after))
        ? ['pattern-generalized']
        : ['pattern-changed']
    }
    case 'constraint-narrowed':
    case 'constraint-widened':
    case 'constraint-changed':
      return [assertionSuffix(message) ?? '']
    case 'discriminator-added':
    case 'discriminator-removed':
      return [rule]
    case 'discriminator-changed': {
      const what = /^discriminator (property|mapping (added|deleted|changed))/.exec(message)
      if (what?.[1] === 'property') return ['discriminator-property-name-changed']
      return what?.[2] === undefined ? [] : [`discriminator-mapping-${what[2]}`]
    }
    default:
      return []
  }
}

/** Ids of changes whose place alone names them (an operation, a parameter, a body, a status). */
function placeId(change: Change, place: Place): string | undefined {
  const { rule, message } = change
  const sunsetMissing = / without an x-sunset/.test(message)
  const side = place.kind === 'request-body' ? 'request' : 'response'
  const byPlace = (operation: string, parameter: string, property?: string) =>
    place.kind === 'operation' ? operation : place.kind === 'parameter' ? parameter : property
  switch (rule) {
    case 'operation-removed':
      return 'api-removed-without-deprecation'
    case 'operation-removed-before-sunset':
      return 'api-removed-before-sunset'
    case 'operation-removed-after-sunset':
      return 'api-removed-with-deprecation'
    case 'operation-added':
      return 'endpoint-added'
    case 'operation-moved':
      return 'new-request-path-parameter'
    case 'operation-deprecated':
      return sunsetMissing ? 'api-deprecated-sunset-missing' : 'endpoint-deprecated-with-sunset'
    case 'parameter-deprecated':
      return sunsetMissing
        ? 'request-parameter-deprecated-sunset-missing'
        : 'request-parameter-deprecated'
    case 'property-deprecated':
      return `${side}-property-deprecated${sunsetMissing ? '-sunset-missing' : '-with-sunset'}`
    case 'deprecation-withdrawn':
      return byPlace(
        'endpoint-reactivated',
        'request-parameter-reactivated',
        `${side}-property-reactivated`,
      )
    case 'sunset-brought-forward':
      return byPlace(
        'api-sunset-date-changed-too-small',
        'request-parameter-sunset-date-changed-too-small',
      )
    case 'sunset-removed':
      return byPlace('sunset-deleted', 'request-parameter-sunset-deleted')
    case 'sunset-invalid':
      return byPlace(
        'api-deprecated-sunset-parse',
        'request-parameter-sunset-parse',
        `${side}-property-deprecated-sunset-invalid`,
      )
    case 'sunset-too-soon':
      return byPlace(
        'api-sunset-date-too-small',
        'request-parameter-sunset-date-too-small',
        `${side}-property-sunset-date-too-small`,
      )
    case 'stability-decreased':
    case 'stability-increased': {
      const way = rule.slice('stability-'.length)
      return byPlace(`api-stability-${way}`, '', `${side}-property-stability-${way}`)
    }
    case 'stability-level-invalid':
      return byPlace('api-invalid-stability-level', '')
    case 'parameter-removed':
      return 'request-parameter-removed'
    case 'parameter-removed-before-sunset':
      return 'request-parameter-removed-before-sunset'
    case 'parameter-removed-after-sunset':
      return 'request-parameter-removed-with-deprecation'
    case 'required-parameter-added':
      return 'new-required-request-parameter'
    case 'optional-parameter-added':
      return 'new-optional-request-parameter'
    case 'parameter-became-required':
    case 'parameter-became-optional':
      return `request-${rule}`
    case 'parameter-default-added':
    case 'parameter-default-removed':
    case 'parameter-default-changed':
      return `request-parameter-default-value-${rule.slice('parameter-default-'.length)}`
    case 'request-body-added':
      return /required/.test(message)
        ? 'request-body-added-required'
        : 'request-body-added-optional'
    case 'request-body-removed':
    case 'request-body-became-required':
    case 'request-body-became-optional':
      return rule
    case 'request-media-type-removed':
    case 'request-media-type-added':
      return `request-body-media-type-${rule.slice('request-media-type-'.length)}`
    case 'response-media-type-removed':
    case 'response-media-type-added':
      return rule
    case 'success-status-removed':
    case 'success-status-added':
      return `response-${rule}`
    case 'error-status-removed':
    case 'error-status-added':
      return `response-non-success-status-${rule.slice('error-status-'.length)}`
    case 'response-header-removed':
      return 'optional-response-header-removed'
    case 'response-header-became-optional':
    case 'response-header-added':
      return rule
    case 'property-removed':
      return side === 'request' ? 'request-property-removed' : 'response-optional-property-removed'
    case 'property-added':
      return side === 'request'
        ? 'new-optional-request-property'
        : 'response-optional-property-added'
    case 'required-property-added':
      return place.header ? 'new-required-request-header-property' : 'new-required-request-property'
    case 'property-became-required':
      return place.header
        ? 'request-header-property-became-required'
        : `${side}-property-became-required`
    case 'property-became-optional':
      return `${side}-property-became-optional`
    case 'webhook-removed':
    case 'webhook-added':
      return rule
    default:
      return undefined
  }
}

export function oasdiffIdsOf(change: Change): string[] {
  const place = placeOf(change.location)
  const candidates =
    change.oasdiff !== undefined
      ? [change.oasdiff]
      : [
          placeId(change, place) ?? '',
          ...prefixesOf(place).flatMap((prefix) =>
            valueSuffixes(change, place).map((suffix) => `${prefix}-${suffix}`),
          ),
        ]
  const id = candidates.find((candidate) => KNOWN.has(candidate))
  return id === undefined ? [] : [id]
}
