/**
 * Deprecation and sunset, as the spec marks them on an operation: `deprecated: true` and
 * `x-sunset` (the date of removal, also sent in the `Sunset` header, RFC 8594). Removing a
 * deprecated operation is allowed once its sunset has passed: clients were warned on every
 * response and given the date. Removing it earlier, or bringing the date forward, breaks that
 * promise.
 */
import { breaking, type Change, nonBreaking } from './change.js'
import type { Json } from './load.js'
import type { Operation } from './model.js'

const isDeprecated = (op: Json) => op.deprecated === true

function sunsetOf(op: Json): Date | undefined {
  const value = op['x-sunset']
  if (typeof value !== 'string' && !(value instanceof Date)) return undefined
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? undefined : date
}

const day = (date: Date) => date.toISOString().slice(0, 10)

/** The removal of a deprecated operation, or `undefined` when it was not deprecated. */
export function deprecatedRemoval(base: Operation, now: Date): Change | undefined {
  if (!isDeprecated(base.op)) return undefined
  const sunset = sunsetOf(base.op)
  const name = base.id ?? base.label
  if (sunset !== undefined && sunset.getTime() <= now.getTime()) {
    return nonBreaking(
      'operation-removed-after-sunset',
      base.label,
      `deprecated ${name} was removed after its sunset (${day(sunset)}), as announced`,
    )
  }
  return breaking(
    'operation-removed-before-sunset',
    base.label,
    sunset === undefined
      ? `deprecated ${name} was removed, but it announced no x-sunset date`
      : `deprecated ${name} was removed before its sunset (${day(sunset)})`,
  )
}

export function compareDeprecation(base: Operation, head: Operation): Change[] {
  const changes: Change[] = []
  if (!isDeprecated(base.op) && isDeprecated(head.op)) {
    changes.push(nonBreaking('operation-deprecated', base.label, 'the operation is now deprecated'))
  }
  const before = sunsetOf(base.op)
  const after = sunsetOf(head.op)
  if (before !== undefined && after !== undefined && after.getTime() !== before.getTime()) {
    changes.push(
      after < before
        ? breaking(
            'sunset-brought-forward',
            base.label,
            `x-sunset moved from ${day(before)} to ${day(after)}: removal comes sooner than announced`,
          )
        : nonBreaking(
            'sunset-postponed',
            base.label,
            `x-sunset moved from ${day(before)} to ${day(after)}`,
          ),
    )
  }
  return changes
}
