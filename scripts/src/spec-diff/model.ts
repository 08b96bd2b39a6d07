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
  const operations = new Map<string, Operation>()
  for (const { path, method, operation: op, parameters } of operationsIn(doc)) {
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
