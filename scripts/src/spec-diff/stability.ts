/**
 * `x-stability-level` on operations and properties, as oasdiff reads it: `draft`, `alpha`,
 * `beta`, `stable` (the default when absent). Clients of a `draft` or `alpha` operation were told
 * it may change, so a breaking change there is reported but needs no major. A level may only go
 * up: taking back a promise breaks the clients that relied on it.
 */
import { breaking, type Change, nonBreaking } from './change.js'
import type { Json } from './load.js'

export const STABILITY_LEVELS = ['draft', 'alpha', 'beta', 'stable'] as const
export type StabilityLevel = (typeof STABILITY_LEVELS)[number]

/** Levels whose breaking changes need no major. */
const UNSTABLE = new Set<string>(['draft', 'alpha'])

/** The declared level; `stable` when absent, `undefined` when not one of the four. */
export function stabilityOf(node: Json): StabilityLevel | undefined {
  const value = node['x-stability-level'] ?? 'stable'
  return STABILITY_LEVELS.find((level) => level === value)
}

/** The `allowedBy` note of a node whose breaking changes need no major, if it is one. */
export function unstableNote(node: Json): string | undefined {
  const level = node['x-stability-level']
  return typeof level === 'string' && UNSTABLE.has(level)
    ? `x-stability-level: ${level}`
    : undefined
}

/**
 * The level of an operation or property present in both specs.
 * @param what e.g. `the operation`, `status`
 */
export function compareStability(base: Json, head: Json, location: string, what: string): Change[] {
  const before = stabilityOf(base)
  const after = stabilityOf(head)
  const shown = (node: Json) => JSON.stringify(node['x-stability-level'])
  if (after === undefined && head['x-stability-level'] !== base['x-stability-level']) {
    return [
      breaking(
        'stability-level-invalid',
        location,
        `x-stability-level ${shown(head)} is not one of ${STABILITY_LEVELS.join(', ')}: clients cannot tell what ${what} promises`,
      ),
    ]
  }
  if (before === undefined || after === undefined || before === after) return []
  const rank = (level: StabilityLevel) => STABILITY_LEVELS.indexOf(level)
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
