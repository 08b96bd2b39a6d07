import { isObject, type Json } from './load.js'

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

export interface Operation {
  /** `METHOD /path`, as reports show it. */
  label: string
  /** The path with parameter names blanked, so renaming `{id}` to `{petId}` still matches. */
  key: string
  id: string | undefined
  op: Json
  /** Path-level and operation-level parameters, by `in:name` (the operation's win). */
  parameters: Map<string, Json>
}

/** Every operation of a resolved document, by `METHOD /path` with blank parameter names. */
export function operationsOf(doc: Json): Map<string, Operation> {
  const operations = new Map<string, Operation>()
  for (const [path, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item)) continue
    for (const method of METHODS) {
      const op = item[method]
      if (!isObject(op)) continue
      const key = `${method.toUpperCase()} ${path.replaceAll(/\{[^}]*\}/g, '{}')}`
      operations.set(key, {
        label: `${method.toUpperCase()} ${path}`,
        key,
        id: typeof op.operationId === 'string' ? op.operationId : undefined,
        op,
        parameters: parametersOf(item.parameters, op.parameters),
      })
    }
  }
  return operations
}

function parametersOf(...lists: unknown[]): Map<string, Json> {
  const parameters = new Map<string, Json>()
  for (const list of lists) {
    for (const parameter of Array.isArray(list) ? list : []) {
      if (isObject(parameter)) parameters.set(parameterKey(parameter), parameter)
    }
  }
  return parameters
}

/** Header names are case-insensitive (RFC 9110 §5.1); other parameter names are not. */
function parameterKey(parameter: Json): string {
  const name = String(parameter.name)
  return `${String(parameter.in)}:${parameter.in === 'header' ? name.toLowerCase() : name}`
}

/** An object member as an object, or an empty one. */
export const objectAt = (node: Json, key: string): Json =>
  isObject(node[key]) ? (node[key] as Json) : {}

/** The union of two objects' keys, in the base's order then the head's new ones. */
export const unionKeys = (base: Json, head: Json): string[] => [
  ...new Set([...Object.keys(base), ...Object.keys(head)]),
]
