/**
 * OpenAPI 3.1 `webhooks`, compared like operations the other way round: the service sends the
 * request and a client's receiver must accept it. Removing a webhook stops calls a receiver
 * waits for (breaking); adding one is a new call nobody has registered for yet. Its payload is
 * judged as what the receiver reads, the way a response is: it may carry less, never more (a new
 * enum value, another type, a property no longer sent break the receiver's handler); what the
 * receiver answers is judged as a request, which the service must keep accepting.
 * @see https://spec.openapis.org/oas/v3.1.0#oas-webhooks
 */
import { breaking, type Change, nonBreaking } from './change.js'
import { compareDeprecation } from './deprecation.js'
import { isObject, type Json } from './load.js'
import { type Operation, objectAt, unionKeys } from './model.js'
import { compareResponseBodies } from './responses.js'
import { compareSchemas } from './schemas.js'
import { compareStability } from './stability.js'

export function compareWebhooks(
  base: Map<string, Operation>,
  head: Map<string, Operation>,
  now: Date,
): Change[] {
  const changes: Change[] = []
  for (const [key, before] of base) {
    const after = head.get(key)
    if (after === undefined) {
      changes.push(
        breaking('webhook-removed', before.label, `${before.label} is no longer sent to receivers`),
      )
      continue
    }
    changes.push(...compareStability(before.op, after.op, before.label, 'the webhook'))
    changes.push(...compareDeprecation(before, after, now))
    changes.push(...comparePayloads(before, after, now))
    changes.push(...compareResponseBodies(before, after, now, 'request'))
  }
  for (const [key, after] of head) {
    if (base.has(key)) continue
    changes.push(nonBreaking('webhook-added', after.label, `${after.label} may now be sent`))
  }
  return changes
}

/** The request a webhook sends: what the receiver reads, so judged as a response is. */
function comparePayloads(base: Operation, head: Operation, now: Date): Change[] {
  const before = isObject(base.op.requestBody) ? base.op.requestBody : {}
  const after = isObject(head.op.requestBody) ? head.op.requestBody : {}
  const location = `${base.label} request body`
  const changes: Change[] = []
  const contentBefore = objectAt(before, 'content')
  const contentAfter = objectAt(after, 'content')
  for (const type of unionKeys(contentBefore, contentAfter)) {
    const at = `${location} ${type}`
    if (!(type in contentAfter)) {
      changes.push(nonBreaking('request-media-type-removed', at, `${type} is no longer sent`))
    } else if (!(type in contentBefore)) {
      changes.push(
        breaking(
          'request-media-type-added',
          at,
          `${type} may now be sent: receivers may not read it`,
        ),
      )
    } else {
      const schema = (content: Json) => objectAt(content, type).schema
      changes.push(
        ...compareSchemas(schema(contentBefore), schema(contentAfter), 'response', at, '', now),
      )
    }
  }
  return changes
}
