import { operationsOf as operationsIn, parameterKey } from '@petstore/types/openapi/source'
import { isObject, type Json } from './load.js'

export interface Operation {
  /** `METHOD /path`, as reports show it. */
  label: string
  /** The path with parameter names blanked, so renaming `{id}` to `{petId}` still matches. */
  key: string
  id: string | undefined
  op: Json
  /** The parameters that apply (`parametersOf`: the operation's override the path's), by `parameterKey`. */
  parameters: Map<string, Json>
}

/** Every operation of a resolved document, by `METHOD /path` with blank parameter names. */
export function operationsOf(doc: Json): Map<string, Operation> {
  return operationsAt(doc, (path) => path)
}

/**
 * Every operation of the document's OpenAPI 3.1 `webhooks`, by `METHOD webhook:<name>` (as
 * oasdiff names them): requests the service sends to the receiver a client registered.
 */
export function webhooksOf(doc: Json): Map<string, Operation> {
  const webhooks = isObject(doc.webhooks) ? doc.webhooks : {}
  return operationsAt({ ...doc, paths: webhooks }, (name) => `webhook:${name}`)
}

function operationsAt(doc: Json, pathOf: (key: string) => string): Map<string, Operation> {
  const operations = new Map<string, Operation>()
  for (const { path: name, method, operation: op, parameters } of operationsIn(doc)) {
    const path = pathOf(name)
    const key = `${method.toUpperCase()} ${path.replaceAll(/\{[^}]*\}/g, '{}')}`
    operations.set(key, {
      label: `${method.toUpperCase()} ${path}`,
      key,
      id: typeof op.operationId === 'string' ? op.operationId : undefined,
      op,
      parameters: new Map(parameters.map((parameter) => [parameterKey(parameter), parameter])),
    })
  }
  return operations
}

/** An object member as an object, or an empty one. */
export const objectAt = (node: Json, key: string): Json =>
  isObject(node[key]) ? (node[key] as Json) : {}

/** The union of two objects' keys, in the base's order then the head's new ones. */
export const unionKeys = (base: Json, head: Json): string[] => [
  ...new Set([...Object.keys(base), ...Object.keys(head)]),
]
