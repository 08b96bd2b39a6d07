/**
 * Operations: removed, moved to another path or method, renamed (`operationId`, which the
 * generated types and the client use), added.
 */
import { breaking, type Change, nonBreaking } from './change.js'
import { deprecatedOperationRemoval } from './deprecation.js'
import type { Operation } from './model.js'

export function compareOperations(
  base: Map<string, Operation>,
  head: Map<string, Operation>,
  now: Date,
): Change[] {
  const changes: Change[] = []
  const headById = new Map([...head.values()].flatMap((o) => (o.id ? [[o.id, o] as const] : [])))
  const moved = new Set<string>()
  for (const [key, before] of base) {
    const after = head.get(key)
    if (after !== undefined) {
      if (after.id !== before.id) {
        changes.push(
          breaking(
            'operation-id-changed',
            before.label,
            `operationId ${before.id ?? '(none)'} -> ${after.id ?? '(none)'}: generated clients name it`,
          ),
        )
      }
      continue
    }
    const elsewhere = before.id === undefined ? undefined : headById.get(before.id)
    if (elsewhere !== undefined && !base.has(elsewhere.key)) {
      moved.add(elsewhere.key)
      changes.push(
        breaking(
          'operation-moved',
          before.label,
          `${before.id} moved from ${before.label} to ${elsewhere.label}`,
        ),
      )
      continue
    }
    changes.push(
      deprecatedOperationRemoval(before, now) ??
        breaking('operation-removed', before.label, `${before.id ?? before.label} was removed`),
    )
  }
  for (const [key, after] of head) {
    if (base.has(key) || moved.has(key)) continue
    changes.push(
      nonBreaking('operation-added', after.label, `${after.id ?? after.label} was added`),
    )
  }
  return changes
}
