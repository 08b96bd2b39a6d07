/**
 * Security requirements of an operation: its own `security`, else the document's. A requirement
 * lists alternatives (any one suffices), each naming schemes that must all be met, with scopes. A
 * client of the baseline meets one of its alternatives; the edit breaks it when no alternative of
 * the edited spec asks only for what that one gave.
 */
import { breaking, type Change, nonBreaking, withOasdiffId } from './change.js'
import { isObject, type Json } from './load.js'
import type { Operation } from './model.js'
import { same } from './schemas.js'

type Alternative = Map<string, Set<string>>

function requirementOf(op: Json, doc: Json): Alternative[] {
  const declared = Array.isArray(op.security) ? op.security : doc.security
  const list = Array.isArray(declared) && declared.length > 0 ? declared : [{}]
  return list
    .filter(isObject)
    .map(
      (alternative) =>
        new Map(
          Object.entries(alternative).map(([scheme, scopes]) => [
            scheme,
            new Set(Array.isArray(scopes) ? scopes.map(String) : []),
          ]),
        ),
    )
}

/** Does a client that meets `given` also meet `asked`? */
const meets = (given: Alternative, asked: Alternative) =>
  [...asked].every(([scheme, scopes]) => {
    const have = given.get(scheme)
    return have !== undefined && [...scopes].every((scope) => have.has(scope))
  })

const show = (alternative: Alternative) =>
  alternative.size === 0
    ? 'no credentials'
    : [...alternative]
        .map(([scheme, scopes]) => (scopes.size ? `${scheme} [${[...scopes].join(', ')}]` : scheme))
        .join(' + ')

export function compareSecurity(
  base: Operation,
  head: Operation,
  baseDoc: Json,
  headDoc: Json,
): Change[] {
  const before = requirementOf(base.op, baseDoc)
  const after = requirementOf(head.op, headDoc)
  const location = `${base.label} security`
  const plain = (list: Alternative[]) => list.map((a) => [...a].map(([s, c]) => [s, [...c].sort()]))
  if (same(plain(before), plain(after))) return []
  const stranded = before.filter((given) => !after.some((asked) => meets(given, asked)))
  // oasdiff: `api-security-scope-added` when only scopes differ, `api-global-...` when inherited.
  const scopesOnly = (from: Alternative[], to: Alternative[]) =>
    from.every((a) => to.some((b) => same([...a.keys()].sort(), [...b.keys()].sort())))
  const where = Array.isArray(head.op.security) ? 'api-security' : 'api-global-security'
  if (stranded.length > 0) {
    const change = breaking(
      'security-requirement-tightened',
      location,
      `clients that authenticate with ${stranded.map(show).join(' or ')} are now refused: the operation asks for ${after.map(show).join(' or ')}`,
    )
    const what = scopesOnly(stranded, after) ? 'scope-added' : 'added'
    return [withOasdiffId(change, `${where}-${what}`)]
  }
  const change = nonBreaking(
    'security-requirement-relaxed',
    location,
    `the operation now accepts ${after.map(show).join(' or ')}`,
  )
  return [
    withOasdiffId(change, `${where}-${scopesOnly(after, before) ? 'scope-removed' : 'removed'}`),
  ]
}
