/**
 * Deprecation headers derived from the spec: an operation with `deprecated: true` and the
 * extensions `x-deprecated-at`, `x-sunset` and `x-successor` gets `Deprecation`, `Sunset` and
 * `Link` on every response. Deprecating another operation is a spec edit, not a code change.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9745 (Deprecation)
 * @see https://www.rfc-editor.org/rfc/rfc8594 (Sunset)
 */
import { lifecycleOf } from '@petstore/types/openapi'
import { type OperationSpec, operationById } from './operations.js'

export interface DeprecationLinks {
  /** Where the rendered docs live, e.g. `/docs`. */
  docsPath: string
  /** The API's base path, e.g. `/v1`. */
  basePath: string
}

/**
 * The header values for a deprecated operation, computed once; `undefined` when the operation
 * is not deprecated. Throws at start if a deprecated operation lacks a valid `x-deprecated-at`
 * or `x-sunset`, or if the sunset is earlier than the deprecation (RFC 9745 §4).
 */
export function deprecationHeaders(
  operation: OperationSpec,
  operations: readonly OperationSpec[],
  links: DeprecationLinks,
): Readonly<Record<string, string>> | undefined {
  if (!operation.deprecated) return undefined
  const {
    deprecatedAt,
    sunset,
    successor: successorId,
    problems,
  } = lifecycleOf(operation.extensions)
  const problem = problems.find((p) => p.extension !== 'x-stability-level')
  if (problem) throw new Error(`${operation.operationId}: ${problem.message}`)
  if (!deprecatedAt || !sunset) {
    const missing = deprecatedAt ? 'x-sunset' : 'x-deprecated-at'
    throw new Error(`${operation.operationId} is deprecated but has no ${missing}`)
  }
  const link = [
    `<${links.docsPath}#operation/${operation.operationId}>; rel="deprecation"; type="text/html"`,
    `<${links.docsPath}#section/Deprecation-policy>; rel="sunset"; type="text/html"`,
  ]
  if (successorId !== undefined) {
    const successor = operationById(successorId, operations)
    link.push(`<${links.basePath}${successor.path}>; rel="successor-version"`)
  }
  return Object.freeze({
    deprecation: `@${Math.floor(deprecatedAt.getTime() / 1000)}`,
    sunset: sunset.toUTCString(),
    link: link.join(', '),
  })
}
