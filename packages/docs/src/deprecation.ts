/**
 * Makes a deprecated operation's removal date visible next to its name. Redoc marks
 * `deprecated: true` itself, but the sunset date (`x-sunset`, RFC 8594) only lives in the prose
 * and the headers, so it becomes an `x-badge` here.
 * @see https://www.rfc-editor.org/rfc/rfc8594 The Sunset HTTP Header Field
 */
import { lifecycleDate, lifecycleOf } from '@petstore/types/openapi'
import { listOperations, type OpenApiDocument } from './openapi.js'

/** `2030-12-05T00:00:00Z` as `5 Dec 2030`, in UTC like the `Sunset` header. */
export function formatSunset(isoDate: string): string {
  const date = lifecycleDate(isoDate)
  if (date === undefined) throw new Error(`x-sunset is not a date: ${isoDate}`)
  return date.toLocaleDateString('en-GB', {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  })
}

/** The badge text shown for an operation's sunset. */
export function sunsetBadge(isoDate: string): string {
  return `Sunset ${formatSunset(isoDate)}`
}

/** A copy of the document where every deprecated operation with `x-sunset` has a sunset badge. */
export function withSunsetBadges(document: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(document)
  for (const { operation } of listOperations(copy)) {
    const { deprecated, sunset } = lifecycleOf(operation)
    if (!deprecated || !sunset) continue
    const badge = { name: sunsetBadge(sunset.toISOString()), color: '#c2410c' }
    operation['x-badges'] = [...(operation['x-badges'] ?? []), badge]
  }
  return copy
}
