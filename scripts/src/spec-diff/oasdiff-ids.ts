/**
 * The oasdiff rule id of a change, for the JSON report: of the ids our rule covers (`rules.ts`),
 * those of the change's place (parameter, request body or property, response header, body or
 * property, operation) and, for a bound, of its keyword. `oasdiff-parity.test.ts` checks that each
 * fixture's change maps back to its oasdiff id.
 */
import type { Change } from './change.js'
import { RULES } from './rules.js'

type Area = (id: string) => boolean

function areaOf(location: string): Area {
  const [where = '', inner] = location.split(': ')
  if (/ (query|path|header|cookie) parameter /.test(where)) {
    return (id) => id.includes('parameter') || id.includes('header-property')
  }
  if (/ response \S+ header /.test(where)) return (id) => id.includes('response-header')
  if (where.includes(' request body')) {
    return inner === undefined
      ? (id) => id.includes('request-body')
      : (id) => id.includes('request-property')
  }
  if (/ response \S+ \S+\/\S+/.test(where)) {
    return inner === undefined
      ? (id) => id.includes('response-body')
      : (id) => /response-(required-|optional-)?property/.test(id)
  }
  return (id) => id.startsWith('api-') || id === 'sunset-deleted'
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

/** How oasdiff's ids name the keywords of `assertions.ts`. */
// A Map: a `then` key would make the object a thenable.
const ASSERTION_SLUGS = new Map([
  ['allOf', 'all-of'],
  ['anyOf', 'any-of'],
  ['oneOf', 'one-of'],
  ['if', '-if-'],
  ['then', '-then-'],
  ['else', '-else-'],
  ['contains', '-contains-'],
  ['prefixItems', 'prefix-items'],
  ['unevaluatedItems', 'unevaluated-items'],
  ['unevaluatedProperties', 'unevaluated-properties'],
  ['dependentRequired', 'dependent-required'],
  ['dependentSchemas', 'dependent-schema'],
  ['patternProperties', 'pattern-propert'],
  ['propertyNames', 'property-names'],
  ['contentSchema', 'content-schema'],
  ['contentMediaType', 'content-media-type'],
  ['contentEncoding', 'content-encoding'],
])

function boundFilter(change: Change): Area {
  const [keyword = ''] = change.message.split(' ')
  const slug = BOUND_SLUGS[keyword]
  if (slug === undefined) return () => false
  // `maxLength none -> 10` sets a bound, `maxLength 10 -> none` unsets it.
  const [, from, , to] = change.message.split(' ')
  const action = from === 'none' ? 'set' : to === 'none' ? 'unset' : undefined
  return (id) => {
    const rest = id.split(`-${slug}-`)[1]
    if (rest === undefined) return false
    return action === undefined ? rest !== 'set' && rest !== 'unset' : rest === action
  }
}

export function oasdiffIdsOf(change: Change): string[] {
  const candidates = RULES[change.rule]?.oasdiff ?? []
  const matching = candidates.filter(areaOf(change.location))
  // A rule whose oasdiff ids all name one place (a media type, a status) matches none of the areas.
  const inArea = matching.length > 0 ? matching : candidates
  if (change.rule === 'bound-tightened' || change.rule === 'bound-relaxed') {
    return inArea.filter(boundFilter(change))
  }
  const slug = ASSERTION_SLUGS.get(change.message.split(' ')[0] ?? '')
  if (change.rule.startsWith('constraint-') && slug !== undefined) {
    const named = inArea.filter((id) => id.includes(slug))
    if (named.length > 0) return named
  }
  return [...inArea]
}
