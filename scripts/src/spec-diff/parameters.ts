/** Parameters (path, query, header, cookie) of an operation present in both specs. */

import { parameterKey } from '@petstore/types/openapi/source'
import { breaking, type Change, nonBreaking, withOasdiffId } from './change.js'
import { compareLifecycle, deprecatedRemoval } from './lifecycle.js'
import { isObject, type Json } from './load.js'
import type { Operation } from './model.js'
import { compareParameterDefault, pathParameterRenames } from './parameter-contract.js'
import { compareSchemas, same } from './schemas.js'

const describe = (p: Json) => `${String(p.in)} parameter ${String(p.name)}`

/** A parameter's schema, also when given as `content: { <media type>: { schema } }`. */
function schemaOf(parameter: Json): unknown {
  if (parameter.schema !== undefined) return parameter.schema
  const content = isObject(parameter.content) ? Object.values(parameter.content) : []
  const first = content[0]
  return isObject(first) ? first.schema : undefined
}

const isRequired = (p: Json) => p.required === true || p.in === 'path'

export function compareParameters(base: Operation, head: Operation, now = new Date()): Change[] {
  const changes: Change[] = []
  const renames = pathParameterRenames(base, head)
  for (const [key, before] of base.parameters) {
    const after = head.parameters.get(renames.get(key) ?? key)
    const location = `${base.label} ${describe(before)}`
    if (after === undefined) {
      changes.push(
        deprecatedRemoval(before, 'parameter', String(before.name), location, now) ??
          breaking('parameter-removed', location, `${String(before.name)} was removed`),
      )
      continue
    }
    if (after.name !== before.name) {
      changes.push(
        nonBreaking(
          'path-parameter-renamed',
          location,
          `{${String(before.name)}} -> {${String(after.name)}}: the URL is the same; generated types name it differently`,
        ),
      )
    }
    changes.push(
      ...compareLifecycle(before, after, 'parameter', String(before.name), location, now),
    )
    changes.push(...compareParameterDefault(schemaOf(before), schemaOf(after), location))
    if (!isRequired(before) && isRequired(after)) {
      changes.push(
        breaking(
          'parameter-became-required',
          location,
          `${String(before.name)} is now required: requests without it are rejected`,
        ),
      )
    } else if (isRequired(before) && !isRequired(after)) {
      changes.push(
        nonBreaking('parameter-became-optional', location, `${String(before.name)} may be omitted`),
      )
    }
    if (!same([before.style, before.explode], [after.style, after.explode])) {
      changes.push(
        breaking(
          'parameter-serialization-changed',
          location,
          `style/explode changed: clients serialize ${String(before.name)} differently`,
        ),
      )
    }
    changes.push(...compareSchemas(schemaOf(before), schemaOf(after), 'request', location, '', now))
  }
  const renamedTo = new Set(renames.values())
  for (const [key, after] of head.parameters) {
    if (base.parameters.has(key) || renamedTo.has(key)) continue
    const location = `${base.label} ${describe(after)}`
    const added = isRequired(after)
      ? breaking(
          'required-parameter-added',
          location,
          `${String(after.name)} was added as required: requests without it are rejected`,
        )
      : nonBreaking('optional-parameter-added', location, `${String(after.name)} was added`)
    // oasdiff names a parameter the path item declares for all its operations apart.
    const own = Array.isArray(head.op.parameters) ? head.op.parameters : []
    const fromPath = !own.some((p) => isObject(p) && parameterKey(p) === key)
    const id = `new-${isRequired(after) ? 'required' : 'optional'}-request-default-parameter-to-existing-path`
    changes.push(withOasdiffId(added, fromPath ? id : undefined))
  }
  return changes
}
