/**
 * The per-operation part of `facts.ts`: what the server's typed binding needs to know of each
 * operation and openapi-typescript's `operations` does not say. Which parameters and body
 * properties have a `default` (the server applies them before a handler runs, so the handler's
 * input type drops their `?`), and for each header of a success response, which
 * `components/headers` entry it reuses (shared headers are written by the /v1 pipeline, the
 * others by the handler: two `Link` headers, the next page's and the deprecation one, differ
 * only by their component) and whether it is `required` (openapi-typescript drops that); the
 * same for each error response; and which link relations a `Link` header carries. The client
 * derives the fields of a call's `meta` from these headers.
 */

import {
  isErrorStatus,
  isSuccessStatus,
  type OperationAt,
  operationsOf,
  resolveRef,
} from '@petstore/types/openapi/source'

type Node = Record<string, unknown>

/** The parts of the bundled spec these facts are read from. */
export interface OperationsSpec {
  paths: Record<string, Record<string, unknown>>
  components?: Node
}

const parameterPlaces = ['query', 'path', 'header'] as const

/** `value` with its `$ref`s followed; `{}` when there is nothing there. */
const resolve = (spec: OperationsSpec, value: unknown): Node =>
  resolveRef<Node | undefined>(spec, value as Node) ?? {}

/** The operations that have an `operationId`: the ones facts are keyed by. */
const identifiedOperations = (spec: OperationsSpec) =>
  operationsOf(spec).filter(
    (found): found is OperationAt & { operation: { operationId: string } } =>
      typeof found.operation.operationId === 'string',
  )

const quote = (value: string) => JSON.stringify(value)
const union = (values: readonly string[]) =>
  values.length === 0 ? 'never' : values.map(quote).join(' | ')

/** A schema's `default`: its own, next to a `$ref` (OpenAPI 3.1 lets it override), else the target's. */
const defaultOf = (spec: OperationsSpec, schema: unknown): unknown =>
  (schema as Node | undefined)?.default ?? resolve(spec, schema).default

function defaultsOf(spec: OperationsSpec, { operation, parameters }: OperationAt): string {
  const places = parameterPlaces.map((place) => {
    const names = parameters
      .filter((p) => p.in === place && defaultOf(spec, p.schema) !== undefined)
      .map((p) => String(p.name))
    return `${place}: ${union(names)}`
  })
  const body = resolve(spec, operation.requestBody).content as Node | undefined
  const bodySchema = resolve(spec, (body?.['application/json'] as Node | undefined)?.schema)
  const properties = (bodySchema.properties ?? {}) as Record<string, Node>
  const bodyDefaults = Object.entries(properties)
    .filter(([, property]) => defaultOf(spec, property) !== undefined)
    .map(([name]) => name)
  return `{ ${places.join('; ')}; body: ${union(bodyDefaults)} }`
}

/**
 * The link relations a `Link` header declares: the literal `rel="…"` values of its schema's
 * pattern (`rel="next"`), else those of its example when the pattern allows any relation.
 * @see https://www.rfc-editor.org/rfc/rfc8288#section-3.3
 */
function linkRelations(spec: OperationsSpec, header: Node): string[] {
  const schema = resolve(spec, header.schema)
  const relations = (text: unknown) =>
    typeof text === 'string'
      ? [...text.matchAll(/rel="([a-z][a-z0-9.-]*)"/g)].map(([, rel = '']) => rel)
      : []
  const fromPattern = relations(schema.pattern)
  return [
    ...new Set(fromPattern.length > 0 ? fromPattern : relations(header.example ?? schema.example)),
  ]
}

/** One line per response whose status matches `statuses`: its headers and what each declares. */
function responseHeadersOf(
  spec: OperationsSpec,
  operation: Node,
  statuses: (status: string) => boolean,
): string[] {
  const lines: string[] = []
  for (const [status, raw] of Object.entries((operation.responses ?? {}) as Node)) {
    if (!statuses(status)) continue
    const headers = (resolve(spec, raw).headers ?? {}) as Record<string, Node>
    const entries = Object.entries(headers).map(([name, header]) => {
      const ref = typeof header.$ref === 'string' ? header.$ref : undefined
      const component = ref?.startsWith('#/components/headers/')
        ? quote(ref.slice('#/components/headers/'.length))
        : 'null'
      const declared = resolve(spec, header)
      const rel =
        name.toLowerCase() === 'link' ? `; rel: ${union(linkRelations(spec, declared))}` : ''
      return `${quote(name)}: { component: ${component}; required: ${declared.required === true}${rel} }`
    })
    const key = /^\d+$/.test(status) ? status : quote(status)
    lines.push(`      ${key}: { ${entries.join('; ')} }`)
  }
  return lines
}

/** `OperationFacts`, one entry per operation with an `operationId`. */
export function renderOperationFacts(spec: OperationsSpec): string[] {
  const entries: string[] = []
  for (const found of identifiedOperations(spec)) {
    const { path, method, operation } = found
    entries.push(
      `  ${quote(operation.operationId)}: {`,
      `    method: ${quote(method)}`,
      `    path: ${quote(path)}`,
      `    defaults: ${defaultsOf(spec, found)}`,
      '    successHeaders: {',
      ...responseHeadersOf(spec, operation, isSuccessStatus),
      '    }',
      '    errorHeaders: {',
      ...responseHeadersOf(spec, operation, isErrorStatus),
      '    }',
      '  }',
    )
  }
  return [
    '/**',
    ' * Each operation as the server binds it: its method and path; the parameters (by where they',
    ' * are sent) and top-level body properties that have a `default`, which the server applies',
    ' * before a handler runs; and the headers of each success response and of each error response,',
    ' * with the `components/headers` entry each reuses (`null` when declared inline), its',
    ' * `required` and, for `Link`, the relations it carries (the client types `meta` from these).',
    ' */',
    'export interface OperationFacts {',
    ...entries,
    '}',
  ]
}

/**
 * `operationRequestHeaders`: the request headers each operation declares (its `in: header`
 * parameters, the path item's included). A runtime table, so the client knows without the
 * bundled spec which operations accept an `Idempotency-Key` and may therefore be retried.
 */
export function renderRequestHeaders(spec: OperationsSpec): string[] {
  const entries: string[] = []
  for (const { operation, parameters } of identifiedOperations(spec)) {
    const names = parameters
      .filter((parameter) => parameter.in === 'header')
      .map((parameter) => quote(String(parameter.name)))
    entries.push(`  ${quote(operation.operationId)}: [${names.join(', ')}],`)
  }
  return [
    '/** The request headers each operation declares (its `in: header` parameters), by `operationId`. */',
    'export const operationRequestHeaders: Readonly<Record<OperationId, readonly string[]>> = {',
    ...entries,
    '}',
  ]
}

/**
 * `operationRequestMediaTypes`: the media types of each operation's request body, in the order
 * the spec lists them (the first is the one a client sends); empty without a body. A runtime
 * table, so the client sends `application/merge-patch+json` where an operation declares it
 * instead of openapi-fetch's `application/json`.
 */
export function renderRequestMediaTypes(spec: OperationsSpec): string[] {
  const entries: string[] = []
  for (const { operation } of identifiedOperations(spec)) {
    const content = (resolve(spec, operation.requestBody).content ?? {}) as Node
    entries.push(
      `  ${quote(operation.operationId)}: [${Object.keys(content).map(quote).join(', ')}],`,
    )
  }
  return [
    "/** The media types of each operation's request body, first the one to send, by `operationId`. */",
    'export const operationRequestMediaTypes: Readonly<Record<OperationId, readonly string[]>> = {',
    ...entries,
    '}',
  ]
}

/**
 * `responseHeaderTypes`: every response header the spec declares, by name as first written,
 * with its schema's type (the support table allows `string` and `integer`, one per name). A
 * runtime table, so the client reads each declared header into `meta` as its text or its number.
 */
export function renderResponseHeaderTypes(spec: OperationsSpec): string[] {
  const types = new Map<string, [name: string, type: string]>()
  for (const { operation } of identifiedOperations(spec)) {
    for (const raw of Object.values((operation.responses ?? {}) as Node)) {
      for (const [name, header] of Object.entries((resolve(spec, raw).headers ?? {}) as Node)) {
        const type =
          resolve(spec, resolve(spec, header).schema).type === 'integer' ? 'integer' : 'string'
        if (!types.has(name.toLowerCase())) types.set(name.toLowerCase(), [name, type])
      }
    }
  }
  return [
    "/** Every response header the spec declares, by name, with its schema's type. */",
    'export const responseHeaderTypes: Readonly<Record<string, "integer" | "string">> = {',
    ...[...types.values()].map(([name, type]) => `  ${quote(name)}: ${quote(type)},`),
    '}',
  ]
}

/** `ErrorCodeStatus`: the status of each error code, from `ErrorCode`'s `x-status`. */
export function renderErrorCodeStatus(spec: OperationsSpec): string[] {
  const schemas = (spec.components?.schemas ?? {}) as Record<string, Node>
  const statuses = (schemas.ErrorCode?.['x-status'] ?? {}) as Record<string, number>
  return [
    "/** The HTTP status each error code is sent with (`ErrorCode`'s `x-status`). */",
    'export interface ErrorCodeStatus {',
    ...Object.entries(statuses).map(([code, status]) => `  ${quote(code)}: ${status}`),
    '}',
  ]
}
