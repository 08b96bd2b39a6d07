/** Response bodies of the statuses both specs declare: media types and schemas. */
import { breaking, type Change, nonBreaking } from './change.js'
import { type Operation, objectAt, unionKeys } from './model.js'
import { compareSchemas } from './schemas.js'

export function compareResponseBodies(
  base: Operation,
  head: Operation,
  now = new Date(),
): Change[] {
  const changes: Change[] = []
  const before = objectAt(base.op, 'responses')
  const after = objectAt(head.op, 'responses')
  for (const status of Object.keys(before)) {
    if (!(status in after)) continue
    const contentBefore = objectAt(objectAt(before, status), 'content')
    const contentAfter = objectAt(objectAt(after, status), 'content')
    for (const type of unionKeys(contentBefore, contentAfter)) {
      const at = `${base.label} response ${status} ${type}`
      if (!(type in contentAfter)) {
        changes.push(breaking('response-media-type-removed', at, `${type} is no longer sent`))
      } else if (!(type in contentBefore)) {
        changes.push(nonBreaking('response-media-type-added', at, `${type} may now be sent`))
      } else {
        const schemaBefore = objectAt(contentBefore, type).schema
        const schemaAfter = objectAt(contentAfter, type).schema
        changes.push(...compareSchemas(schemaBefore, schemaAfter, 'response', at, '', now))
      }
    }
  }
  return changes
}
