/**
 * The example rule: every component schema and every response body carries an example. The docs
 * show them, each code sample in the docs is checked against its success response's example,
 * and `@petstore/types`' test validates every example against its schema; a missing one would
 * leave a hole in all three.
 */
import { operationsOf, resolvePointer } from '@petstore/types/openapi/source'
import { isObject, type Json } from '../spec-diff/load.js'
import type { Finding } from './finding.js'

const hasExample = (node: Json, examplesKind: 'array' | 'map'): boolean => {
  if (node.example !== undefined) return true
  const { examples } = node
  if (examplesKind === 'array') return Array.isArray(examples) && examples.length > 0
  return isObject(examples) && Object.keys(examples).length > 0
}

/** The findings of the example rule in a parsed (unresolved) OpenAPI document. */
export function missingExamples(doc: Json): Finding[] {
  return [...schemasWithoutExample(doc), ...responsesWithoutExample(doc)]
}

function schemasWithoutExample(doc: Json): Finding[] {
  const schemas = isObject(doc.components) ? doc.components.schemas : undefined
  if (!isObject(schemas)) return []
  return Object.entries(schemas)
    .filter(([, schema]) => isObject(schema) && schema.$ref === undefined)
    .filter(([, schema]) => !hasExample(schema as Json, 'array'))
    .map(([name]) => ({
      code: 'petstore-schema-example',
      severity: 'error',
      path: ['components', 'schemas', name],
      message: `schema ${name}: no example: add \`examples\` (a list of values) to it`,
    }))
}

function responsesWithoutExample(doc: Json): Finding[] {
  const findings: Finding[] = []
  for (const { path, method, operation } of operationsOf(doc)) {
    if (!isObject(operation.responses)) continue
    const name =
      typeof operation.operationId === 'string'
        ? operation.operationId
        : `${method.toUpperCase()} ${path}`
    for (const [status, declared] of Object.entries(operation.responses)) {
      const { response, ref } = followRef(doc, declared)
      if (!isObject(response.content)) continue
      for (const [mediaType, media] of Object.entries(response.content)) {
        if (isObject(media) && hasExample(media, 'map')) continue
        const where = ref === undefined ? "the response's content" : `${ref} content`
        findings.push({
          code: 'petstore-response-example',
          severity: 'error',
          path: ['paths', path, method, 'responses', status, 'content', mediaType],
          message: `${name} ${status} (${mediaType}): no example: add one under \`examples\` in ${where}`,
        })
      }
    }
  }
  return findings
}

/**
 * A response declared in place or by `$ref`, and the component it came from. A `$ref` that
 * leads nowhere (or in a circle) counts as no content: Spectral reports it.
 */
function followRef(doc: Json, node: unknown): { response: Json; ref?: string } {
  const seen: string[] = []
  let response = node
  while (isObject(response) && typeof response.$ref === 'string') {
    const ref = response.$ref
    if (!ref.startsWith('#/') || seen.includes(ref)) return { response: {} }
    seen.push(ref)
    try {
      response = resolvePointer(doc, ref)
    } catch {
      return { response: {} }
    }
  }
  const ref = seen.at(-1)
  return { response: isObject(response) ? response : {}, ...(ref === undefined ? {} : { ref }) }
}
