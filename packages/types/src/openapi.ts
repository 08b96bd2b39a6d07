/**
 * Reading an OpenAPI 3.1 document: local `$ref`s and the walk over its operations. The server
 * (routes, validators, serializers) and the docs build (samples, anchors) both read the spec
 * through this module, so they cannot disagree on what a reference or an operation is.
 *
 * @example
 * ```ts
 * import { openapiDocument } from '@petstore/types/spec'
 * import { operationsOf } from '@petstore/types/openapi'
 * for (const { method, path, operation } of operationsOf(openapiDocument)) console.log(method, path)
 * ```
 */

/** The operation fields of an OpenAPI Path Item, in the specification's order. */
export const httpMethods = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
] as const

export type HttpMethodName = (typeof httpMethods)[number]

type Node = Record<string, unknown>

/**
 * Reads a local JSON pointer such as `#/components/schemas/Pet`.
 * @see https://www.rfc-editor.org/rfc/rfc6901
 */
export function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) throw new Error(`only local $ref are supported, got ${ref}`)
  let node: unknown = document
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const token = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~')
    if (node === null || typeof node !== 'object' || !(token in node)) {
      throw new Error(`$ref ${ref} does not resolve`)
    }
    node = (node as Node)[token]
  }
  return node
}

function refOf(value: unknown): string | undefined {
  const ref = value !== null && typeof value === 'object' ? (value as Node).$ref : undefined
  return typeof ref === 'string' ? ref : undefined
}

/** Follows `$ref`s from `value` until it reaches a value that is not a reference. */
export function resolveRef<T>(document: unknown, value: T | { $ref: string }): T {
  let current: unknown = value
  for (let hops = 0; ; hops++) {
    const ref = refOf(current)
    if (ref === undefined) return current as T
    if (hops > 32) throw new Error(`$ref cycle at ${ref}`)
    current = resolvePointer(document, ref)
  }
}

/**
 * A copy of `node` with every `$ref` replaced by its target. Keywords next to a `$ref` (OpenAPI
 * 3.1 allows them, e.g. `NewPet.status` has `$ref` and `default`) win over the target's, so
 * draft-07 tools such as fast-json-stringify see the same meaning as a 2020-12 validator.
 */
export function dereference<T = unknown>(node: T, document: unknown): T {
  return inline(node, document, []) as T
}

function inline(node: unknown, document: unknown, trail: readonly string[]): unknown {
  if (Array.isArray(node)) return node.map((item) => inline(item, document, trail))
  if (node === null || typeof node !== 'object') return node
  const { $ref, ...siblings } = node as Node
  const base: Node = {}
  if (typeof $ref === 'string') {
    if (trail.includes($ref)) throw new Error(`$ref cycle through ${$ref}`)
    Object.assign(base, inline(resolvePointer(document, $ref), document, [...trail, $ref]))
  }
  for (const [key, value] of Object.entries(siblings)) base[key] = inline(value, document, trail)
  return base
}

/** One operation of a document, where it was found. */
export interface OperationAt<Operation = Node> {
  path: string
  method: HttpMethodName
  /** The Path Item holding it (its shared `parameters` apply to the operation too). */
  pathItem: Node
  operation: Operation
}

/** Every operation of the document, in path order, then in the order of `httpMethods`. */
export function operationsOf<Operation = Node>(document: unknown): OperationAt<Operation>[] {
  const paths = ((document as { paths?: Record<string, Node> }).paths ?? {}) as Record<string, Node>
  const found: OperationAt<Operation>[] = []
  for (const [path, pathItem] of Object.entries(paths)) {
    for (const method of httpMethods) {
      const operation = pathItem[method]
      if (operation !== undefined)
        found.push({ path, method, pathItem, operation: operation as Operation })
    }
  }
  return found
}
