/**
 * `x-stability-level` on operations and properties, as oasdiff reads it: `draft`, `alpha`,
 * `beta`, `stable` (the default when absent). Clients of a `draft` or `alpha` operation were told
 * it may change, so a breaking change there is reported but needs no major. A level may only go
 * up: taking back a promise breaks the clients that relied on it.
 */
import { lifecycleOf, type StabilityLevel, stabilityLevels } from '@petstore/types/openapi/source'
import { breaking, type Change, nonBreaking } from './change.js'
import { unreadable } from './lifecycle.js'
import type { Json } from './load.js'

/** Levels whose breaking changes need no major. */
const UNSTABLE = new Set<StabilityLevel>(['draft', 'alpha'])

/** The `allowedBy` note of a node whose breaking changes need no major, if it is one. */
export function unstableNote(node: Json): string | undefined {
  const level = lifecycleOf(node).stability
  return level !== undefined && UNSTABLE.has(level) ? `x-stability-level: ${level}` : undefined
}

/**
 * The level of an operation or property present in both specs. A level that is not one of the
 * four, in the edited spec or in the released one, is reported: clients cannot tell what it
 * promised or promises.
 * @param what e.g. `the operation`, `status`
 */
export function compareStability(base: Json, head: Json, location: string, what: string): Change[] {
  const before = lifecycleOf(base).stability
  const after = lifecycleOf(head).stability
  const invalid = unreadable(
    base,
    head,
    'x-stability-level',
    'stability-level-invalid',
    location,
    `what ${what} promises`,
  )
  if (invalid.length > 0) return invalid
  if (before === undefined || after === undefined || before === after) return []
  const rank = (level: StabilityLevel) => stabilityLevels.indexOf(level)
  return rank(after) < rank(before)
    ? [
        breaking(
          'stability-decreased',
          location,
          `x-stability-level ${before} -> ${after}: ${what} promises less than clients were given; a level may only go up`,
        ),
      ]
    : [nonBreaking('stability-increased', location, `x-stability-level ${before} -> ${after}`)]
}

/**
 * Breaking changes inside a `draft` or `alpha` operation of the baseline, or to its removal,
 * become reported-but-allowed; a lowered level itself stays breaking.
 */
export function allowUnstable(changes: Change[], label: string, op: Json): Change[] {
  const note = unstableNote(op)
  if (note === undefined) return changes
  return changes.map((change) =>
    change.kind === 'breaking' &&
    change.rule !== 'stability-decreased' &&
    (change.location === label || change.location.startsWith(`${label} `))
      ? { ...change, kind: 'non-breaking', allowedBy: note }
      : change,
  )
}
