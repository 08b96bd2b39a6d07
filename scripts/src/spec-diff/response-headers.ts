/** Response headers of the statuses both specs declare (names compared case-insensitively). */
import { breaking, type Change, nonBreaking } from './change.js'
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
        changes.push(breaking('response-header-removed', location, `${name} is no longer sent`))
        continue
      }
      if (header.required === true && next.header.required !== true) {
        changes.push(
          breaking('response-header-became-optional', location, `${name} is no longer always sent`),
        )
      }
      changes.push(
        ...compareSchemas(header.schema, next.header.schema, 'response', location, '', now),
      )
    }
    for (const [key, { name }] of headersAfter) {
      if (headersBefore.has(key)) continue
      const location = `${base.label} response ${status} header ${name}`
      changes.push(nonBreaking('response-header-added', location, `${name} is now sent`))
    }
  }
  return changes
}
