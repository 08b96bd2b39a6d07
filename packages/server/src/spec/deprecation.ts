/**
 * Deprecation headers derived from the spec: an operation with `deprecated: true` and the
 * extensions `x-deprecated-at`, `x-sunset` and `x-successor` gets `Deprecation`, `Sunset` and
 * `Link` on every response. Deprecating another operation is a spec edit, not a code change.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9745 (Deprecation)
 * @see https://www.rfc-editor.org/rfc/rfc8594 (Sunset)
 */
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
  const deprecatedAt = readDate(operation, 'x-deprecated-at')
  const sunset = readDate(operation, 'x-sunset')
  if (sunset < deprecatedAt) {
    throw new Error(`${operation.operationId}: x-sunset is earlier than x-deprecated-at`)
  }
  const link = [
    `<${links.docsPath}#operation/${operation.operationId}>; rel="deprecation"; type="text/html"`,
    `<${links.docsPath}#section/Deprecation-policy>; rel="sunset"; type="text/html"`,
  ]
  const successorId = operation.extensions['x-successor']
  if (typeof successorId === 'string') {
    const successor = operationById(successorId, operations)
    link.push(`<${links.basePath}${successor.path}>; rel="successor-version"`)
  }
  return Object.freeze({
    deprecation: `@${Math.floor(deprecatedAt.getTime() / 1000)}`,
    sunset: sunset.toUTCString(),
    link: link.join(', '),
  })
}

function readDate(operation: OperationSpec, extension: string): Date {
  const value = operation.extensions[extension]
  const date = typeof value === 'string' ? new Date(value) : new Date(Number.NaN)
  if (Number.isNaN(date.getTime())) {
    throw new Error(`${operation.operationId} is deprecated but ${extension} is not a date`)
  }
  return date
}
