/**
 * The bundled spec as the server reads it, with `$ref`s inlined (through
 * `@petstore/types/openapi`, which the docs build reads it with too), so that route schemas,
 * validators and serializers are built from the spec itself, never written twice.
 */
import { dereference as inlineRefs } from '@petstore/types/openapi'
import { openapiDocument } from '@petstore/types/spec'

export { resolvePointer } from '@petstore/types/openapi'

export type JsonSchema = { [keyword: string]: unknown }

/** The bundled OpenAPI document (`@petstore/types/spec`), served at `/v1/openapi.json`. */
export const specDocument: Readonly<Record<string, unknown>> = openapiDocument as Record<
  string,
  unknown
>

/** `node` with every `$ref` replaced by its target in `document` (default: the bundled spec). */
export function dereference<T = unknown>(node: T, document: unknown = specDocument): T {
  return inlineRefs(node, document)
}
