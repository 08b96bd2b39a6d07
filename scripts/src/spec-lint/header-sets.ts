/**
 * The header-set rule. Many responses share headers (every response's `X-Request-Id`, every
 * counted response's rate limits), so the spec declares each set once, in its root
 * `x-header-sets`, and a response names the sets it carries in `x-header-set` (one name, or a list
 * such as `[deprecated, limited]`) and lists their headers in full, each the `$ref` its set gives,
 * beside headers of its own. This rule holds every response to its sets: a set stays one source
 * without YAML merge keys (`plain-yaml.ts`), and every tool reads the headers as written. Both
 * extensions belong to the source alone: the bundle leaves them out (`withoutHeaderSets`).
 */
import { isDeepStrictEqual } from 'node:util'
import { operationsOf, resolvePointer } from '@petstore/types/openapi/source'
import { isObject, type Json } from '../spec-diff/load.js'
import type { Finding } from './finding.js'

/** The root block that declares the sets. */
export const HEADER_SETS = 'x-header-sets'
/** The response field that names the sets a response carries. */
export const HEADER_SET = 'x-header-set'

const COMPONENT_HEADERS = '#/components/headers/'

/** A header a set gives, and the set that declares it (itself, or one it includes). */
interface Given {
  header: Json
  set: string
}

/** The sets, each resolved to every header it gives, its included sets' first. */
type Sets = Map<string, Map<string, Given>>

/** A response declared in place (not a `$ref`), where it is and how findings name it. */
interface ResponseAt {
  response: Json
  path: string[]
  name: string
}

/** The findings of the header-set rule in a parsed (unresolved) OpenAPI document. */
export function headerSetFindings(doc: Json): Finding[] {
  if (doc[HEADER_SETS] === undefined) return []
  const findings: Finding[] = []
  const sets = readSets(doc, findings)
  findings.push(...variantFindings(doc, sets))
  for (const at of responsesOf(doc)) findings.push(...responseFindings(at, sets))
  return findings
}

/**
 * The document without the header sets: the root block and every response's `x-header-set`.
 * What the bundle serves, whose responses list their headers in full.
 */
export function withoutHeaderSets(doc: Json): Json {
  const { [HEADER_SETS]: _, ...rest } = structuredClone(doc)
  for (const { response } of responsesOf(rest)) delete response[HEADER_SET]
  return rest
}

/** Every response declared in place: in each operation, and in `components.responses`. */
function responsesOf(doc: Json): ResponseAt[] {
  const found: ResponseAt[] = []
  for (const { path, method, operation } of operationsOf(doc)) {
    if (!isObject(operation.responses)) continue
    const id = typeof operation.operationId === 'string' ? ` (${operation.operationId})` : ''
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!isObject(response) || response.$ref !== undefined) continue
      found.push({
        response,
        path: ['paths', path, method, 'responses', status],
        name: `${method.toUpperCase()} ${path} ${status}${id}`,
      })
    }
  }
  const components = isObject(doc.components) ? doc.components.responses : undefined
  for (const [name, response] of Object.entries(isObject(components) ? components : {})) {
    if (!isObject(response) || response.$ref !== undefined) continue
    found.push({ response, path: ['components', 'responses', name], name: `response ${name}` })
  }
  return found
}

function finding(path: string[], message: string): Finding {
  return { code: 'petstore-header-set', severity: 'error', path, message }
}

/** How a finding shows a header: its `$ref`, or that it has none. */
const shown = (header: unknown): string =>
  isObject(header) && typeof header.$ref === 'string' ? header.$ref : 'a header written in place'

/** Reads and resolves `x-header-sets`, reporting what is malformed into `findings`. */
function readSets(doc: Json, findings: Finding[]): Sets {
  const block = doc[HEADER_SETS]
  const sets: Sets = new Map()
  if (!isObject(block)) {
    findings.push(finding([HEADER_SETS], `${HEADER_SETS} must map each set's name to its headers`))
    return sets
  }
  const resolving: string[] = []
  const resolve = (name: string): Map<string, Given> => {
    const done = sets.get(name)
    if (done !== undefined) return done
    const where = [HEADER_SETS, name]
    const given = new Map<string, Given>()
    const set = block[name]
    if (resolving.includes(name)) {
      findings.push(
        finding(where, `set ${name} includes itself (${[...resolving, name].join(' -> ')})`),
      )
      return given
    }
    resolving.push(name)
    const includes = isObject(set) ? (set.includes ?? []) : []
    if (!isObject(set) || !Array.isArray(includes) || !isObject(set.members)) {
      findings.push(
        finding(
          where,
          `set ${name} must have \`members\` (header name: { $ref }) and may have \`includes\` (a list of sets)`,
        ),
      )
    } else {
      for (const included of includes) {
        if (typeof included !== 'string' || !Object.hasOwn(block, included)) {
          findings.push(
            finding(
              [...where, 'includes'],
              `set ${name} includes ${String(included)}, which ${HEADER_SETS} does not declare`,
            ),
          )
          continue
        }
        for (const [header, from] of resolve(included)) give(given, header, from, where, findings)
      }
      for (const [header, value] of Object.entries(set.members)) {
        if (!refersToComponent(doc, value)) {
          findings.push(
            finding(
              [...where, 'members', header],
              `set ${name}: header ${header} must be a $ref to an existing ${COMPONENT_HEADERS}<name>, not ${shown(value)}`,
            ),
          )
          continue
        }
        give(given, header, { header: value, set: name }, where, findings)
      }
    }
    resolving.pop()
    sets.set(name, given)
    return given
  }
  for (const name of Object.keys(block)) resolve(name)
  return sets
}

/** Adds a header to a set's resolution; two different ones under one name are a finding. */
function give(
  given: Map<string, Given>,
  header: string,
  from: Given,
  where: string[],
  findings: Finding[],
) {
  const before = given.get(header)
  if (before !== undefined && !isDeepStrictEqual(before.header, from.header)) {
    findings.push(
      finding(
        where,
        `header ${header} comes from set ${before.set} as ${shown(before.header)} and from set ${from.set} as ${shown(from.header)}: keep one`,
      ),
    )
    return
  }
  given.set(header, from)
}

function refersToComponent(doc: Json, value: unknown): value is Json {
  if (!isObject(value) || typeof value.$ref !== 'string') return false
  if (!value.$ref.startsWith(COMPONENT_HEADERS)) return false
  try {
    return isObject(resolvePointer(doc, value.$ref))
  } catch {
    return false
  }
}

/** The fields a header's variants (one name, two components) may differ in: presence and prose. */
const variantFields = new Set(['description', 'required'])

/**
 * A header that two sets give by different components (`X-RateLimit-Limit` on a counted
 * response, and `X-RateLimit-Limit-IfCounted` on a failure, sent only when the request was
 * counted) is still one header on the wire: the components agree on all but `description` and
 * `required`, so a change of the header's syntax cannot reach one of them alone.
 */
function variantFindings(doc: Json, sets: Sets): Finding[] {
  const first = new Map<string, Given>()
  const reported = new Set<string>()
  const findings: Finding[] = []
  for (const given of sets.values()) {
    for (const [header, from] of given) {
      const base = first.get(header)
      if (base === undefined) {
        first.set(header, from)
        continue
      }
      const [baseRef, ref] = [shown(base.header), shown(from.header)]
      if (baseRef === ref || reported.has(ref)) continue
      reported.add(ref)
      const a = resolvePointer(doc, baseRef) as Json
      const b = resolvePointer(doc, ref) as Json
      const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])]
      const differ = keys.filter(
        (key) => !variantFields.has(key) && !isDeepStrictEqual(a[key], b[key]),
      )
      if (differ.length === 0) continue
      findings.push(
        finding(
          ref.slice(2).split('/'),
          `${ref} differs from ${baseRef} in ${differ.join(', ')}: set ${from.set} and set ${base.set} both give it as ${header}, one header on the wire; only description and required may differ`,
        ),
      )
    }
  }
  return findings
}

function responseFindings({ response, path, name }: ResponseAt, sets: Sets): Finding[] {
  const named = response[HEADER_SET]
  const choices = [...sets.keys()].join(', ')
  const list = typeof named === 'string' ? [named] : named
  if (!Array.isArray(list) || list.length === 0 || list.some((set) => typeof set !== 'string')) {
    const what =
      named === undefined ? 'names no header set' : `has ${HEADER_SET} ${JSON.stringify(named)}`
    return [
      finding(
        path,
        `${name} ${what}: add \`${HEADER_SET}: <set>\` (or a list of sets) naming the sets of ${HEADER_SETS} its headers come from (${choices})`,
      ),
    ]
  }
  const findings: Finding[] = []
  const expected = new Map<string, Given>()
  for (const set of list as string[]) {
    const given = sets.get(set)
    if (given === undefined) {
      findings.push(
        finding(
          [...path, HEADER_SET],
          `${name} names header set ${set}, which ${HEADER_SETS} does not declare (${choices})`,
        ),
      )
      continue
    }
    for (const [header, from] of given)
      give(expected, header, from, [...path, HEADER_SET], findings)
  }
  // Which headers are its own is unknown until every set it names is.
  if (findings.length > 0) return findings
  const headers = isObject(response.headers) ? response.headers : {}
  for (const [header, { header: value, set }] of expected) {
    const at = [...path, 'headers', header]
    if (!Object.hasOwn(headers, header)) {
      findings.push(
        finding(
          at,
          `${name}: missing header ${header} of set ${set}: add \`${header}: { $ref: '${shown(value)}' }\` to its headers`,
        ),
      )
    } else if (!isDeepStrictEqual(headers[header], value)) {
      findings.push(
        finding(
          at,
          `${name}: header ${header} is ${shown(headers[header])}, but set ${set} gives it as ${shown(value)}`,
        ),
      )
    }
  }
  for (const [header, value] of Object.entries(headers)) {
    if (expected.has(header)) continue
    const declaring = new Set<string>()
    for (const given of sets.values()) {
      const from = given.get(header)
      if (from !== undefined && isDeepStrictEqual(from.header, value)) declaring.add(from.set)
    }
    if (declaring.size === 0) continue
    const of = [...declaring].join(' or ')
    findings.push(
      finding(
        [...path, 'headers', header],
        `${name}: extra header ${header}, of set ${of}, which ${HEADER_SET} does not name: remove the header, or name its set`,
      ),
    )
  }
  return findings
}
