/**
 * The slice of OpenAPI 3.1 the docs build reads, and a walk over a document's operations with
 * local `$ref`s resolved and path-level parameters applied (by `@petstore/types/openapi`, which
 * the server, the generated facts and spec:diff read the spec with too). The bundled spec is the
 * only source: nothing here restates it.
 */
import { isJsonMediaType, operationsOf, resolveRef } from '@petstore/types/openapi'

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
  /**
   * The media type a request body is sent as: the first JSON one the operation declares
   * (`application/json`, `application/merge-patch+json`); absent without a request body.
   */
  bodyMediaType?: string
  /** That media type's examples, in document order; empty when it has none. */
  bodyExamples: unknown[]
}

/**
 * Follows local JSON pointers (`#/components/...`) until it reaches a non-reference value.
 * @see https://www.rfc-editor.org/rfc/rfc6901 JSON Pointer
 */
export function resolve<T>(document: OpenApiDocument, value: T | Reference): T {
  return resolveRef(document, value)
}

/**
 * Every operation of the document, in path then method order. Its request body is read when
 * asked, and fails, naming the operation, without a JSON media type: the samples and the console
 * could only send it wrong.
 */
export function listOperations(document: OpenApiDocument): OperationEntry[] {
  return operationsOf<Operation, Parameter>(document).map(
    ({ path, method, operation, parameters }) => {
      let body: RequestBody | undefined
      const read = () => {
        body ??= requestBodyOf(document, operation, `${method.toUpperCase()} ${path}`)
        return body
      }
      return {
        path,
        method,
        operation,
        parameters,
        get bodyMediaType() {
          return read().bodyMediaType
        },
        get bodyExamples() {
          return read().bodyExamples
        },
      }
    },
  )
}

type RequestBody = Pick<OperationEntry, 'bodyMediaType' | 'bodyExamples'>

function requestBodyOf(
  document: OpenApiDocument,
  operation: Operation,
  where: string,
): RequestBody {
  if (!operation.requestBody) return { bodyExamples: [] }
  const content = resolve(document, operation.requestBody).content ?? {}
  const bodyMediaType = Object.keys(content).find((type) => isJsonMediaType(type))
  const media = bodyMediaType === undefined ? undefined : content[bodyMediaType]
  if (bodyMediaType === undefined || media === undefined) {
    const declared = Object.keys(content).join(', ') || 'none'
    throw new Error(
      `${operation.operationId ?? where}: its request body has no JSON media type (declared: ${declared}); the docs' samples and try-it console send JSON bodies only`,
    )
  }
  return { bodyMediaType, bodyExamples: mediaExamples(document, media) }
}

function mediaExamples(document: OpenApiDocument, media: MediaType): unknown[] {
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
