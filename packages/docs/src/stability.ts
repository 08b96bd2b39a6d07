/**
 * Shows an operation's `x-stability-level` (`draft`, `alpha`, `beta`; `stable` when absent, as
 * oasdiff and `pnpm spec:diff` read it) as a badge beside its name: a `draft` or `alpha`
 * operation may break without a major release, and a reader choosing what to build on should see
 * that before the details. Short names: Redoc cuts sidebar badges at 90 px.
 */
import { lifecycleOf } from '@petstore/types/openapi'
import { listOperations, type OpenApiDocument } from './openapi.js'

/** The badge of each level below `stable`. */
export const stabilityBadges: Readonly<Record<string, { name: string; color: string }>> = {
  draft: { name: 'Draft', color: '#b91c1c' },
  alpha: { name: 'Alpha', color: '#c2410c' },
  beta: { name: 'Beta', color: '#1d4ed8' },
}

/** A copy of the document where every operation below `stable` has a badge naming its level. */
export function withStabilityBadges(document: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(document)
  for (const { operation } of listOperations(copy)) {
    const level = lifecycleOf(operation).stability
    const badge = level === undefined ? undefined : stabilityBadges[level]
    if (badge === undefined) continue
    operation['x-badges'] = [...(operation['x-badges'] ?? []), badge]
  }
  return copy
}
