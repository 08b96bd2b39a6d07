/**
 * Response status codes. A client handles the success statuses it was promised: removing one,
 * or adding another (its handler never runs), breaks it. Error statuses are open-ended: every
 * client already needs a path for an undocumented error, so adding or removing one does not.
 */
import { isSuccessStatus } from '@petstore/types/openapi/source'
import { breaking, type Change, nonBreaking } from './change.js'
import { type Operation, objectAt } from './model.js'

export function compareStatusCodes(base: Operation, head: Operation): Change[] {
  const changes: Change[] = []
  const before = objectAt(base.op, 'responses')
  const after = objectAt(head.op, 'responses')
  for (const status of Object.keys(before)) {
    if (status in after) continue
    const location = `${base.label} response ${status}`
    changes.push(
      isSuccessStatus(status)
        ? breaking('success-status-removed', location, `success status ${status} was removed`)
        : nonBreaking('error-status-removed', location, `error status ${status} was removed`),
    )
  }
  for (const status of Object.keys(after)) {
    if (status in before) continue
    const location = `${base.label} response ${status}`
    changes.push(
      isSuccessStatus(status)
        ? breaking(
            'success-status-added',
            location,
            `success status ${status} was added: clients handle only the documented ones`,
          )
        : nonBreaking('error-status-added', location, `error status ${status} was added`),
    )
  }
  return changes
}
