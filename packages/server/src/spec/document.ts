/**
 * The bundled spec as the server reads it: JSON pointers and `$ref` inlining, so that route
 * schemas, validators and serializers are built from the spec itself, never written twice.
 */
import { openapiDocument } from '@petstore/types/spec'

export type JsonSchema = { [keyword: string]: unknown }

/** The bundled OpenAPI document (`@petstore/types/spec`), served at `/v1/openapi.json`. */
export const specDocument: Readonly<Record<string, unknown>> = openapiDocument as Record<
  string,
  unknown
>

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
    node = (node as Record<string, unknown>)[token]
  }
  return node
}

/**
 * Returns a copy of `node` with every `$ref` replaced by its target. Keywords next to a `$ref`
 * (OpenAPI 3.1 allows them, e.g. `NewPet.status` has `$ref` and `default`) win over the target's,
 * so draft-07 tools such as fast-json-stringify see the same meaning as a 2020-12 validator.
 */
export function dereference<T = unknown>(node: T, document: unknown = specDocument): T {
  return inline(node, document, []) as T
}

function inline(node: unknown, document: unknown, trail: readonly string[]): unknown {
  if (Array.isArray(node)) return node.map((item) => inline(item, document, trail))
  if (node === null || typeof node !== 'object') return node
  const { $ref, ...siblings } = node as Record<string, unknown>
  const base: Record<string, unknown> = {}
  if (typeof $ref === 'string') {
    if (trail.includes($ref)) throw new Error(`$ref cycle through ${$ref}`)
    const target = inline(resolvePointer(document, $ref), document, [...trail, $ref])
    Object.assign(base, target)
  }
  for (const [key, value] of Object.entries(siblings)) base[key] = inline(value, document, trail)
  return base
}
