/** The request body of an operation present in both specs: presence, media types, schema. */
import { breaking, type Change, nonBreaking } from './change.js'
import { isObject, type Json } from './load.js'
import { type Operation, objectAt, unionKeys } from './model.js'
import { mediaTypeSchemaIds } from './responses.js'
import { compareSchemas } from './schemas.js'

export function compareRequestBodies(base: Operation, head: Operation, now = new Date()): Change[] {
  const before = isObject(base.op.requestBody) ? base.op.requestBody : undefined
  const after = isObject(head.op.requestBody) ? head.op.requestBody : undefined
  const location = `${base.label} request body`
  if (before === undefined && after === undefined) return []
  if (before === undefined) {
    return [
      (after as Json).required === true
        ? breaking('request-body-added', location, 'a required request body was added')
        : nonBreaking('request-body-added', location, 'an optional request body was added'),
    ]
  }
  if (after === undefined) {
    return [breaking('request-body-removed', location, 'the request body was removed')]
  }
  const changes: Change[] = []
  if (before.required !== true && after.required === true) {
    changes.push(breaking('request-body-became-required', location, 'the body is now required'))
  } else if (before.required === true && after.required !== true) {
    changes.push(nonBreaking('request-body-became-optional', location, 'the body may be omitted'))
  }
  const contentBefore = objectAt(before, 'content')
  const contentAfter = objectAt(after, 'content')
  for (const type of unionKeys(contentBefore, contentAfter)) {
    const at = `${location} ${type}`
    if (!(type in contentAfter)) {
      changes.push(breaking('request-media-type-removed', at, `${type} is no longer accepted`))
    } else if (!(type in contentBefore)) {
      changes.push(nonBreaking('request-media-type-added', at, `${type} is now accepted`))
    } else {
      const schema = (content: Json) => objectAt(content, type).schema
      const [old, next] = [schema(contentBefore), schema(contentAfter)]
      changes.push(
        ...mediaTypeSchemaIds(compareSchemas(old, next, 'request', at, '', now), at, old, next),
      )
    }
  }
  return changes
}
