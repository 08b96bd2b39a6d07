/**
 * Response headers of the statuses both specs declare (names compared case-insensitively). The
 * CORS headers (`Access-Control-*`) are addressed to the browser, which applies them and hides
 * them from scripts: removing one still breaks browser clients, but a change of the values they
 * carry reaches no client code, so it is reported and needs no major.
 * @see https://fetch.spec.whatwg.org/#http-responses
 */
import { breaking, type Change, nonBreaking, withOasdiffId } from './change.js'
import { isObject, type Json } from './load.js'
import { type Operation, objectAt } from './model.js'
import { compareSchemas } from './schemas.js'

function headersOf(response: Json): Map<string, { name: string; header: Json }> {
  const headers = new Map<string, { name: string; header: Json }>()
  for (const [name, header] of Object.entries(objectAt(response, 'headers'))) {
    if (isObject(header)) headers.set(name.toLowerCase(), { name, header })
  }
  return headers
}

export function compareResponseHeaders(
  base: Operation,
  head: Operation,
  now = new Date(),
): Change[] {
  const changes: Change[] = []
  const before = objectAt(base.op, 'responses')
  const after = objectAt(head.op, 'responses')
  for (const status of Object.keys(before)) {
    if (!(status in after)) continue
    const headersBefore = headersOf(objectAt(before, status))
    const headersAfter = headersOf(objectAt(after, status))
    for (const [key, { name, header }] of headersBefore) {
      const location = `${base.label} response ${status} header ${name}`
      const next = headersAfter.get(key)
      if (next === undefined) {
        const removed = breaking('response-header-removed', location, `${name} is no longer sent`)
        const id = header.required === true ? 'required-response-header-removed' : undefined
        changes.push(withOasdiffId(removed, id))
        continue
      }
      if (header.required === true && next.header.required !== true) {
        changes.push(
          breaking('response-header-became-optional', location, `${name} is no longer always sent`),
        )
      }
      const compared = compareSchemas(
        header.schema,
        next.header.schema,
        'response',
        location,
        '',
        now,
      )
      changes.push(...(key.startsWith('access-control-') ? readByTheBrowser(compared) : compared))
    }
    for (const [key, { name }] of headersAfter) {
      if (headersBefore.has(key)) continue
      const location = `${base.label} response ${status} header ${name}`
      changes.push(nonBreaking('response-header-added', location, `${name} is now sent`))
    }
  }
  return changes
}

/** Why a change to a CORS header's value needs no major (`allowedBy`). */
export const BROWSER_HEADER =
  'a CORS header: the browser applies it and no client code reads its value'

const readByTheBrowser = (changes: Change[]): Change[] =>
  changes.map((change) =>
    change.kind === 'breaking'
      ? { ...change, kind: 'non-breaking', allowedBy: BROWSER_HEADER }
      : change,
  )
