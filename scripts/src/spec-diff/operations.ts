/**
 * Operations: removed, moved to another path or method, renamed (`operationId`, which the
 * generated types and the client use), added.
 */
import { breaking, type Change, nonBreaking, withOasdiffId } from './change.js'
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
    const removal =
      deprecatedOperationRemoval(before, now) ??
      breaking('operation-removed', before.label, `${before.id ?? before.label} was removed`)
    changes.push(
      withOasdiffId(removal, pathGone(before, head) ? PATH_GONE[removal.rule] : undefined),
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

/** oasdiff's ids of an operation removed with its whole path (`api-path-...`). */
const PATH_GONE: Record<string, string> = {
  'operation-removed': 'api-path-removed-without-deprecation',
  'operation-removed-before-sunset': 'api-path-removed-before-sunset',
  'operation-removed-after-sunset': 'api-path-removed-with-deprecation',
  'sunset-invalid': 'api-path-sunset-parse',
}

const pathOf = (operation: Operation) => operation.key.slice(operation.key.indexOf(' ') + 1)

/** Is no operation left on the path of `operation`? */
const pathGone = (operation: Operation, head: Map<string, Operation>) =>
  ![...head.values()].some((other) => pathOf(other) === pathOf(operation))
