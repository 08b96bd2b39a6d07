/**
 * Strong entity tags of the resources (`ETag` on every response with a pet or an order) and the
 * `If-Match` precondition of their writes. A tag is a digest of the resource as the store holds
 * it (its id, then its properties in their schema's order), so it changes exactly when the
 * resource does and needs nothing stored beside it.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-8.8.3 (ETag)
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-13.1.1 (If-Match)
 */
import { hash } from 'node:crypto'

/** The `ETag` value of `resource`: 22 characters of its SHA-256, quoted. */
export function etagOf(resource: object): string {
  return `"${hash('sha256', JSON.stringify(resource), 'base64url').slice(0, 22)}"`
}

/**
 * Whether `ifMatch` (the header as sent; undefined without one) lets a write of a resource whose
 * tag is `current` go on: no header, `*`, or a listed strong tag equal to it. A weak tag never
 * matches (If-Match compares strongly).
 */
export function preconditionHolds(ifMatch: string | undefined, current: string): boolean {
  if (ifMatch === undefined) return true
  const value = ifMatch.trim()
  if (value === '*') return true
  return value.split(',').some((tag) => tag.trim() === current)
}
