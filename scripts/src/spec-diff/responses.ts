/**
 * Response bodies of the statuses both specs declare: media types and schemas. In the body of an
 * error response (4xx, 5xx, `default`) a new enum value, such as a new error code, is reported but
 * needs no major: every client already has a path for an error it does not know (an undocumented
 * status, a proxy's 502), and a new code reaches that same path, the way a new error status does
 * (`status-codes.ts`). RFC 9457 asks clients of problem types the same.
 * @see https://www.rfc-editor.org/rfc/rfc9457#section-3.1.1
 */
import { isErrorStatus } from '@petstore/types/openapi/source'
import { breaking, type Change, type Direction, nonBreaking, withOasdiffId } from './change.js'
import { type Operation, objectAt, unionKeys } from './model.js'
import { compareSchemas } from './schemas.js'

/**
 * @param direction `response` for an operation; `request` for a webhook, whose receiver sends
 *   the response (`webhooks.ts`)
 */
export function compareResponseBodies(
  base: Operation,
  head: Operation,
  now = new Date(),
  direction: Direction = 'response',
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
        const removed = breaking('response-media-type-removed', at, `${type} is no longer sent`)
        // `application/json` gone where `application/*` came: oasdiff calls it generalized.
        const wider = Object.keys(contentAfter).some(
          (other) => !(other in contentBefore) && covers(other, type),
        )
        changes.push(
          withOasdiffId(removed, wider ? 'response-media-type-name-generalized' : undefined),
        )
      } else if (!(type in contentBefore)) {
        changes.push(nonBreaking('response-media-type-added', at, `${type} may now be sent`))
      } else {
        const schemaBefore = objectAt(contentBefore, type).schema
        const schemaAfter = objectAt(contentAfter, type).schema
        const compared = compareSchemas(schemaBefore, schemaAfter, direction, at, '', now)
        const open = direction === 'response' && isErrorStatus(status)
        changes.push(
          ...mediaTypeSchemaIds(
            open ? openErrorValues(compared) : compared,
            at,
            schemaBefore,
            schemaAfter,
          ),
        )
      }
    }
  }
  return changes
}

/** Why a new value in an error body needs no major (`allowedBy`). */
export const ERROR_VALUES_OPEN =
  'an error response: clients handle an error code they do not know as they handle an undocumented error'

function openErrorValues(changes: Change[]): Change[] {
  return changes.map((change) =>
    change.kind === 'breaking' && change.rule === 'enum-value-added'
      ? { ...change, kind: 'non-breaking', allowedBy: ERROR_VALUES_OPEN }
      : change,
  )
}

/** Does the media range `range` (`application/*`, `*\/*`) take in `type`? */
const covers = (range: string, type: string) => {
  const [top, sub] = range.split('/')
  return (top === '*' || top === type.split('/')[0]) && sub === '*'
}

/**
 * oasdiff names the change of a media type that gains or loses its whole schema apart
 * (`request-body-media-type-schema-added`, `response-body-media-type-schema-removed`).
 */
export function mediaTypeSchemaIds(
  changes: Change[],
  at: string,
  before: unknown,
  after: unknown,
): Change[] {
  if ((before === undefined) === (after === undefined)) return changes
  const side = at.includes(' request body') ? 'request' : 'response'
  const id = `${side}-body-media-type-schema-${before === undefined ? 'added' : 'removed'}`
  return changes.map((change) => (change.location === at ? withOasdiffId(change, id) : change))
}
