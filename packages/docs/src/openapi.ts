/**
 * The slice of OpenAPI 3.1 the docs build reads, and a walk over a document's operations with
 * local `$ref`s resolved and path-level parameters applied (by `@petstore/types/openapi`, which
 * the server, the generated facts and spec:diff read the spec with too). The bundled spec is the
 * only source: nothing here restates it.
 */
import { operationsOf, resolveRef } from '@petstore/types/openapi'

export interface Reference {
  $ref: string
}

export interface Schema {
  type?: string | string[]
  enum?: unknown[]
  default?: unknown
  examples?: unknown[]
  $ref?: string
  [keyword: string]: unknown
}

export interface Parameter {
  name: string
  in: 'query' | 'path' | 'header' | 'cookie'
  required?: boolean
  description?: string
  schema?: Schema
  example?: unknown
  examples?: Record<string, { value?: unknown }>
}

export interface MediaType {
  schema?: Schema
  example?: unknown
  examples?: Record<string, { summary?: string; value?: unknown } | Reference>
}

export interface CodeSample {
  lang: string
  label?: string
  source: string
}

export interface Badge {
  name: string
  color?: string
  position?: 'before' | 'after'
}

export interface Operation {
  operationId?: string
  summary?: string
  description?: string
  deprecated?: boolean
  parameters?: (Parameter | Reference)[]
  requestBody?: { required?: boolean; content?: Record<string, MediaType> } | Reference
  responses?: Record<string, unknown>
  'x-sunset'?: string
  'x-deprecated-at'?: string
  'x-successor'?: string
  'x-codeSamples'?: CodeSample[]
  'x-badges'?: Badge[]
  [extension: `x-${string}`]: unknown
}

export interface OpenApiDocument {
  openapi: string
  info: { title: string; version: string; [key: string]: unknown }
  servers?: { url: string; description?: string }[]
  paths: Record<string, Record<string, Operation | unknown>>
  components?: Record<string, Record<string, unknown>>
  [key: string]: unknown
}

/** One operation of a document, with its parameters and request body resolved. */
export interface OperationEntry {
  path: string
  method: string
  operation: Operation
  parameters: Parameter[]
  /** The JSON request body's examples, in document order; empty when there is no JSON body. */
  bodyExamples: unknown[]
}

/**
 * Follows local JSON pointers (`#/components/...`) until it reaches a non-reference value.
 * @see https://www.rfc-editor.org/rfc/rfc6901 JSON Pointer
 */
export function resolve<T>(document: OpenApiDocument, value: T | Reference): T {
  return resolveRef(document, value)
}

/** Every operation of the document, in path then method order. */
export function listOperations(document: OpenApiDocument): OperationEntry[] {
  return operationsOf<Operation, Parameter>(document).map(
    ({ path, method, operation, parameters }) => ({
      path,
      method,
      operation,
      parameters,
      bodyExamples: bodyExamples(document, operation),
    }),
  )
}

function bodyExamples(document: OpenApiDocument, operation: Operation): unknown[] {
  if (!operation.requestBody) return []
  const media = resolve(document, operation.requestBody).content?.['application/json']
  if (!media) return []
  if (media.examples) {
    return Object.values(media.examples).map((example) => resolve(document, example).value)
  }
  if (media.example !== undefined) return [media.example]
  const schema = media.schema && resolve(document, media.schema)
  return schema?.examples ?? []
}

/** The example value of a parameter: its `example`, its first `examples`, or its schema's. */
export function parameterExample(document: OpenApiDocument, parameter: Parameter): unknown {
  if (parameter.example !== undefined) return parameter.example
  const first = Object.values(parameter.examples ?? {})[0]
  if (first?.value !== undefined) return first.value
  const schema = parameter.schema && resolve(document, parameter.schema)
  return schema?.examples?.[0] ?? schema?.default
}
