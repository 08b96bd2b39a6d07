/**
 * The operations of the spec, read once at start: method, path, parameters, body and response
 * schemas (with `$ref` inlined) and extensions. Routes, validators, serializers and deprecation
 * headers are all derived from this list, so a spec edit is the only edit a new rule needs.
 */
import type { OperationId } from '@petstore/types'
import {
  type HttpMethodName,
  httpMethods,
  isJsonMediaType,
  operationsOf,
} from '@petstore/types/openapi'
import { dereference, type JsonSchema, resolvePointer, specDocument } from './document.js'

export type HttpMethod = Uppercase<HttpMethodName>

export interface ParameterSpec {
  name: string
  in: 'query' | 'path' | 'header'
  required: boolean
  schema: JsonSchema
}

export interface HeaderSpec {
  required: boolean
  schema: JsonSchema
}

export interface ResponseSpec {
  /** The body schema of `application/json`, if the response has a body. */
  schema?: JsonSchema
  /** Declared headers, keyed by their name as written in the spec. */
  headers: Readonly<Record<string, HeaderSpec>>
}

/** An operation's request body: the schema of each JSON media type it accepts. */
export interface RequestBodySpec {
  required: boolean
  /** By media type, e.g. `application/merge-patch+json`, in the spec's order. */
  content: Readonly<Record<string, JsonSchema>>
}

export interface OperationSpec {
  operationId: OperationId
  method: HttpMethod
  /** The path as the spec writes it, e.g. `/pets/{petId}`. */
  path: string
  /** The same path in Fastify's syntax, e.g. `/pets/:petId`. */
  routePath: string
  parameters: readonly ParameterSpec[]
  requestBody?: RequestBodySpec
  /** Keyed by status code as a string (`"200"`, `"400"`, ...). */
  responses: Readonly<Record<string, ResponseSpec>>
  deprecated: boolean
  /** `security: []` in the spec: needs no API key (still rate limited per client IP). */
  public: boolean
  /** The operation's `x-*` extensions, e.g. `x-sunset`. */
  extensions: Readonly<Record<string, unknown>>
}

type Node = Record<string, unknown>

/** A spec path (`/pets/{petId}`) as Fastify routes it (`/pets/:petId`). */
export function routePathOf(specPath: string): string {
  return specPath.replace(/\{([^}]+)\}/g, ':$1')
}

/** A Fastify route (`/v1/pets/:petId`) as the spec writes it (`/v1/pets/{petId}`): metrics' and traces' `http.route`. */
export function specPathOf(routePath: string): string {
  return routePath.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
}

/** Reads every operation of an OpenAPI 3.1 document. */
export function readOperations(document: unknown = specDocument): OperationSpec[] {
  return operationsOf(document)
    .filter(({ method }) => routedMethods.has(method))
    .map(({ path, method, operation, parameters }) =>
      readOperation(document, path, method.toUpperCase() as HttpMethod, operation, parameters),
    )
}

/**
 * The methods that get a handler of their own. OPTIONS (declared in the spec where a path
 * documents it) is answered for every path by http/methods.ts; HEAD follows GET in Fastify.
 */
const routedMethods: ReadonlySet<string> = new Set(
  httpMethods.filter((method) => method !== 'options' && method !== 'head'),
)

function readOperation(
  document: unknown,
  path: string,
  method: HttpMethod,
  operation: Node,
  declared: readonly Node[],
): OperationSpec {
  const parameters = declared.map((raw) => {
    const parameter = dereference(raw, document) as Node
    return {
      name: String(parameter.name),
      in: parameter.in as ParameterSpec['in'],
      required: parameter.required === true,
      schema: (parameter.schema ?? {}) as JsonSchema,
    }
  })
  const extensions = Object.fromEntries(
    Object.entries(operation).filter(([key]) => key.startsWith('x-')),
  )
  const spec: OperationSpec = {
    operationId: operation.operationId as OperationId,
    method,
    path,
    routePath: routePathOf(path),
    parameters,
    responses: readResponses(document, operation.responses as Node),
    deprecated: operation.deprecated === true,
    public: Array.isArray(operation.security) && operation.security.length === 0,
    extensions,
  }
  const body = operation.requestBody
  if (body !== undefined) {
    const requestBody = dereference(body, document) as Node
    const content = requestBody.content as Record<string, { schema: JsonSchema }>
    // Generation refuses any other media type (the support table); a document passed at run
    // time (tests' edited copies) is held to the same rule here.
    const types = Object.keys(content)
    const other = types.find((type) => !isJsonMediaType(type))
    if (other !== undefined) {
      throw new Error(`${spec.operationId}: request body media type ${other} is not supported`)
    }
    spec.requestBody = {
      required: requestBody.required === true,
      content: Object.fromEntries(types.map((type) => [type, content[type]?.schema ?? {}])),
    }
  }
  return spec
}

function readResponses(document: unknown, responses: Node): Record<string, ResponseSpec> {
  const read: Record<string, ResponseSpec> = {}
  for (const [status, raw] of Object.entries(responses)) {
    const response = dereference(raw, document) as Node
    const content = response.content as Record<string, { schema?: JsonSchema }> | undefined
    const headers = (response.headers ?? {}) as Record<string, Node>
    read[status] = {
      schema: content?.['application/json']?.schema,
      headers: Object.fromEntries(
        Object.entries(headers).map(([name, header]) => [
          name,
          { required: header.required === true, schema: (header.schema ?? {}) as JsonSchema },
        ]),
      ),
    }
  }
  return read
}

/**
 * The schema of an operation's request body, one for all its media types (the support table
 * holds the spec to that); undefined without a body.
 */
export function requestBodySchema(operation: OperationSpec): JsonSchema | undefined {
  const [schema] = Object.values(operation.requestBody?.content ?? {})
  return schema
}

/** The spec's operations, read once. */
export const specOperations: readonly OperationSpec[] = readOperations()

/** The operation with this id; throws if the spec has none (a programming error). */
export function operationById(
  operationId: string,
  operations: readonly OperationSpec[] = specOperations,
): OperationSpec {
  const operation = operations.find((candidate) => candidate.operationId === operationId)
  if (operation === undefined) throw new Error(`the spec has no operation ${operationId}`)
  return operation
}

/** The path prefix of the first server URL, e.g. `/v1`. */
export function specBasePath(document: unknown = specDocument): string {
  const servers = (document as { servers?: { url: string }[] }).servers ?? []
  const first = servers[0]?.url ?? '/'
  return new URL(first, 'http://localhost').pathname.replace(/\/$/, '')
}

/** A schema by its component name, `$ref` inlined. */
export function componentSchema(name: string, document: unknown = specDocument): JsonSchema {
  return dereference(
    resolvePointer(document, `#/components/schemas/${name}`),
    document,
  ) as JsonSchema
}
