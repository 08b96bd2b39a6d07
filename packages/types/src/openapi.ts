/**
 * The one reader of an OpenAPI 3.1 document: local `$ref`s, the walk over its operations, the
 * parameters that apply to each, and the rules every consumer would otherwise restate (which
 * methods a path item holds, which statuses succeed, HEAD following GET). The server (routes,
 * validators, serializers), the docs build, the generated facts and the scripts (spec-lint,
 * spec:diff) all read the spec through this module, so they cannot disagree on what it says.
 * The scripts import it as source, before any build, from `@petstore/types/openapi/source`.
 *
 * @example
 * ```ts
 * import { openapiDocument } from '@petstore/types/spec'
 * import { operationsOf } from '@petstore/types/openapi'
 * for (const { method, path, parameters } of operationsOf(openapiDocument)) {
 *   console.log(method, path, parameters.map((p) => p.name))
 * }
 * ```
 */

/**
 * The operation fields of an OpenAPI Path Item, in the specification's order.
 * @see https://spec.openapis.org/oas/v3.1.0#path-item-object
 */
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

const isNode = (value: unknown): value is Node =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/**
 * Reads a local JSON pointer such as `#/components/schemas/Pet`: each token is URI-decoded (a
 * `$ref` is a URI fragment), then `~1` becomes `/` and `~0` becomes `~`, in that order.
 *
 * @example
 * ```ts
 * resolvePointer(document, '#/paths/~1pets~1{petId}/get') // the operation of `/pets/{petId}`
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6901#section-4
 */
export function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) throw new Error(`only local $ref are supported, got ${ref}`)
  let node: unknown = document
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const token = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~')
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) {
      throw new Error(`$ref ${ref} does not resolve`)
    }
    node = (node as Node)[token]
  }
  return node
}

function refOf(value: unknown): string | undefined {
  const ref = isNode(value) ? value.$ref : undefined
  return typeof ref === 'string' ? ref : undefined
}

/**
 * Follows `$ref`s from `value` until it reaches a value that is not a reference.
 *
 * @example
 * ```ts
 * resolveRef(document, { $ref: '#/components/parameters/PetId' }) // { name: 'petId', in: 'path', … }
 * ```
 */
export function resolveRef<T>(document: unknown, value: T | { $ref: string }): T {
  let current: unknown = value
  for (let hops = 0; ; hops++) {
    const ref = refOf(current)
    if (ref === undefined) return current as T
    if (hops > 32) throw new Error(`$ref cycle at ${ref}`)
    current = resolvePointer(document, ref)
  }
}

export interface DereferenceOptions {
  /**
   * What a `$ref` met again inside its own target becomes: an error (`'throw'`, the default), or
   * the `{ $ref }` left in place (`'keep'`), so that a recursive schema still compares by name.
   */
  cycles?: 'throw' | 'keep'
  /**
   * Filled with the `$ref` each inlined object stands for (`#/components/schemas/Dog`), so that a
   * reader of the copy can still name what it came from (spec:diff names `oneOf` branches so).
   */
  refs?: WeakMap<object, string>
}

/**
 * A copy of `node` with every `$ref` replaced by its target. Keywords next to a `$ref` (OpenAPI
 * 3.1 allows them, e.g. `NewPet.status` has `$ref` and `default`) win over the target's, so
 * draft-07 tools such as fast-json-stringify see the same meaning as a 2020-12 validator.
 *
 * @example
 * ```ts
 * dereference({ $ref: '#/components/schemas/Pet' }, document) // the Pet schema, its refs inlined
 * ```
 */
export function dereference<T = unknown>(
  node: T,
  document: unknown,
  options: DereferenceOptions = {},
): T {
  return inline(node, document, [], options) as T
}

function inline(
  node: unknown,
  document: unknown,
  trail: readonly string[],
  options: DereferenceOptions,
): unknown {
  if (Array.isArray(node)) return node.map((item) => inline(item, document, trail, options))
  if (node === null || typeof node !== 'object') return node
  const { $ref, ...siblings } = node as Node
  const base: Node = {}
  if (typeof $ref === 'string') {
    if (trail.includes($ref)) {
      if (options.cycles === 'keep') return { $ref }
      throw new Error(`$ref cycle through ${$ref}`)
    }
    const target = inline(resolvePointer(document, $ref), document, [...trail, $ref], options)
    if (!isNode(target)) return target
    Object.assign(base, target)
    options.refs?.set(base, $ref)
  }
  for (const [key, value] of Object.entries(siblings)) {
    base[key] = inline(value, document, trail, options)
  }
  return base
}

/**
 * The properties an object schema declares, by name, in the order its author wrote them, with
 * `$ref`s followed and `allOf` branches merged: the schema's keywords are read in their order,
 * a `$ref`'s target or an `allOf` branch in its place among them, so `allOf: [{ $ref: NewPet },
 * { properties: { id } }]` yields NewPet's properties, then `id`. Each property's schema is
 * dereferenced; a name declared again keeps its first place and takes the later keywords.
 *
 * @example
 * ```ts
 * [...schemaProperties({ $ref: '#/components/schemas/Pet' }, document).keys()] // ['id', 'name', …]
 * ```
 */
export function schemaProperties(schema: unknown, document: unknown): Map<string, Node> {
  const found = new Map<string, Node>()
  collectProperties(schema, document, found, [])
  return found
}

function collectProperties(
  schema: unknown,
  document: unknown,
  found: Map<string, Node>,
  trail: readonly string[],
): void {
  if (!isNode(schema)) return
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === '$ref' && typeof value === 'string') {
      if (trail.includes(value)) throw new Error(`$ref cycle through ${value}`)
      collectProperties(resolvePointer(document, value), document, found, [...trail, value])
    } else if (keyword === 'allOf' && Array.isArray(value)) {
      for (const branch of value) collectProperties(branch, document, found, trail)
    } else if (keyword === 'properties' && isNode(value)) {
      for (const [name, property] of Object.entries(value)) {
        const inlined = dereference(property, document)
        found.set(name, { ...found.get(name), ...(isNode(inlined) ? inlined : {}) })
      }
    }
  }
}

/**
 * What makes a parameter unique: its location and name. Header names are case-insensitive
 * (RFC 9110 §5.1), so `in: header` compares them in lower case; other names are exact.
 *
 * @example
 * ```ts
 * parameterKey({ name: 'X-Request-Id', in: 'header' }) // 'header:x-request-id'
 * ```
 * @see https://spec.openapis.org/oas/v3.1.0#parameter-object
 */
export function parameterKey(parameter: { name?: unknown; in?: unknown }): string {
  const name = String(parameter.name)
  return `${String(parameter.in)}:${parameter.in === 'header' ? name.toLowerCase() : name}`
}

/**
 * The parameters that apply to an operation: the Path Item's, except those the operation
 * declares again with the same name and location (the operation's one overrides it), then the
 * operation's own, each `$ref` resolved against `document` (one level; schemas keep theirs).
 *
 * @example
 * ```ts
 * // path item: [{ name: 'limit', in: 'query', required: true }]
 * // operation: [{ name: 'limit', in: 'query', required: false }]
 * parametersOf(pathItem, operation) // [{ name: 'limit', in: 'query', required: false }]
 * ```
 * @see https://spec.openapis.org/oas/v3.1.0#path-item-object ("can be overridden at the
 *   operation level, but cannot be removed there")
 */
export function parametersOf<Parameter = Node>(
  pathItem: object,
  operation: object,
  document?: unknown,
): Parameter[] {
  const read = (owner: object) => {
    const list = (owner as { parameters?: unknown }).parameters
    return (Array.isArray(list) ? list : [])
      .map((raw) => resolveRef<unknown>(document, raw))
      .filter(isNode)
  }
  const own = read(operation)
  const overridden = new Set(own.map(parameterKey))
  const shared = read(pathItem).filter((parameter) => !overridden.has(parameterKey(parameter)))
  return [...shared, ...own] as Parameter[]
}

/** One operation of a document, where it was found. */
export interface OperationAt<Operation = Node, Parameter = Node> {
  path: string
  method: HttpMethodName
  /** The Path Item holding it, `$ref` resolved. */
  pathItem: Node
  operation: Operation
  /** The parameters that apply to it, the Path Item's included (`parametersOf`), read on access. */
  parameters: Parameter[]
}

/**
 * Every operation of the document, in path order, then in the order of `httpMethods`.
 *
 * @example
 * ```ts
 * operationsOf(document).map(({ method, path }) => `${method.toUpperCase()} ${path}`)
 * // ['GET /pets', 'POST /pets', …]
 * ```
 */
export function operationsOf<Operation = Node, Parameter = Node>(
  document: unknown,
): OperationAt<Operation, Parameter>[] {
  const paths = isNode(document) && isNode(document.paths) ? document.paths : {}
  const found: OperationAt<Operation, Parameter>[] = []
  for (const [path, declared] of Object.entries(paths)) {
    const pathItem = resolveRef<unknown>(document, declared)
    if (!isNode(pathItem)) continue
    for (const method of httpMethods) {
      const operation = pathItem[method]
      if (!isNode(operation)) continue
      found.push({
        path,
        method,
        pathItem,
        operation: operation as Operation,
        // Read when asked: a walk that only needs the operations never meets a parameter's $ref.
        get parameters() {
          return parametersOf<Parameter>(pathItem, operation, document)
        },
      })
    }
  }
  return found
}

/**
 * Whether a Responses Object key is a success: a `1XX`, `2XX` or `3XX` code, or one of those
 * ranges (a range stands for every code in it), which a caller handles as the answer it asked
 * for. `4XX`, `5XX` (codes and ranges) and `default` are errors (`isErrorStatus`).
 *
 * @example
 * ```ts
 * isSuccessStatus('201') // true
 * isSuccessStatus('2XX') // true
 * isSuccessStatus('default') // false
 * ```
 * @see https://spec.openapis.org/oas/v3.1.0#patterned-fields-0
 */
export const isSuccessStatus = (status: string): boolean => /^[123](\d\d|XX)$/.test(status)

/**
 * Whether a Responses Object key is an error: a `4XX` or `5XX` code or range, or `default`.
 *
 * @example
 * ```ts
 * isErrorStatus('4XX') // true
 * ```
 */
export const isErrorStatus = (status: string): boolean => /^([45](\d\d|XX)|default)$/.test(status)

/**
 * The methods an operation's method is answered for, in upper case: HEAD wherever GET, since a
 * HEAD answer is the GET answer without its body.
 *
 * @example
 * ```ts
 * answeredMethods('get') // ['GET', 'HEAD']
 * answeredMethods('POST') // ['POST']
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-9.3.2
 */
export function answeredMethods(method: string): string[] {
  const upper = method.toUpperCase()
  return upper === 'GET' ? ['GET', 'HEAD'] : [upper]
}

/**
 * A media type without its parameters, in lower case (type and subtype are case-insensitive): a
 * request's `Content-Type` as the spec's content keys name it.
 *
 * @example
 * ```ts
 * mediaTypeOf('Application/JSON; charset=utf-8') // 'application/json'
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-8.3.1
 */
export const mediaTypeOf = (type: string): string =>
  (type.split(';', 1)[0] ?? '').trim().toLowerCase()

/**
 * Whether a media type is JSON: `application/json`, or an `application/*+json` type such as
 * `application/merge-patch+json` (a structured syntax suffix), compared in lower case without
 * parameters. These are the request and response bodies the service reads and writes.
 *
 * @example
 * ```ts
 * isJsonMediaType('application/merge-patch+json') // true
 * isJsonMediaType('Application/JSON; charset=utf-8') // true
 * isJsonMediaType('text/plain') // false
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6839#section-3.1
 */
export const isJsonMediaType = (type: string): boolean =>
  /^application\/(?:[a-z0-9!#$&^_.-]+\+)?json$/.test(mediaTypeOf(type))

export {
  type Lifecycle,
  type LifecycleExtension,
  type LifecycleProblem,
  lifecycleDate,
  lifecycleOf,
  type StabilityLevel,
  stabilityLevels,
} from './lifecycle.js'
