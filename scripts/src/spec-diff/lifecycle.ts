/**
 * Deprecation and sunset of anything a client uses: an operation, a parameter, a property. The
 * spec marks it `deprecated: true` with `x-sunset`, the date of removal (also sent in the `Sunset`
 * header, RFC 8594). Removing a deprecated element is allowed once its sunset has passed: clients
 * were warned and given the date. Removing it earlier, or bringing the date forward, breaks that
 * promise; so does announcing a sunset that has already passed, which gives no notice at all.
 */
import { type LifecycleExtension, lifecycleOf } from '@petstore/types/openapi/source'
import { breaking, type Change, nonBreaking } from './change.js'
import type { Json } from './load.js'

const isDeprecated = (node: Json) => node.deprecated === true

/** Why a lifecycle extension cannot be read (`x-sunset` not a date, ...), if it cannot. */
const problemOf = (node: Json, extension: LifecycleExtension): string | undefined =>
  lifecycleOf(node).problems.find((p) => p.extension === extension)?.message

const sunsetProblem = (node: Json) => problemOf(node, 'x-sunset')

/**
 * A lifecycle extension that cannot be read, in the edited spec or else in the released one:
 * reported either way, since the clients of either cannot tell what it promises.
 * @param unknown what clients cannot tell, e.g. `when the operation goes`
 */
export function unreadable(
  base: Json,
  head: Json,
  extension: LifecycleExtension,
  rule: string,
  location: string,
  unknown: string,
): Change[] {
  const edited = problemOf(head, extension)
  if (edited !== undefined)
    return [breaking(rule, location, `${edited}: clients cannot tell ${unknown}`)]
  const released = problemOf(base, extension)
  if (released === undefined) return []
  const message = `the released spec's ${released}: its clients could not tell ${unknown} either`
  return [breaking(rule, location, message)]
}

/** The `x-sunset` date; `'invalid'` when it is set but cannot be read. */
export function sunsetOf(node: Json): Date | 'invalid' | undefined {
  return sunsetProblem(node) === undefined ? lifecycleOf(node).sunset : 'invalid'
}

const day = (date: Date) => date.toISOString().slice(0, 10)

/**
 * The removal of a deprecated element, or `undefined` when it was not deprecated.
 * @param subject the rule prefix: `operation`, `parameter`, `property`
 * @param name how the message names it, e.g. `getPet`, `limit`
 */
export function deprecatedRemoval(
  node: Json,
  subject: string,
  name: string,
  location: string,
  now: Date,
): Change | undefined {
  if (!isDeprecated(node)) return undefined
  const sunset = sunsetOf(node)
  if (sunset === 'invalid') {
    return breaking(
      'sunset-invalid',
      location,
      `deprecated ${name} was removed, but its ${sunsetProblem(node)}: clients were never told when`,
    )
  }
  if (sunset !== undefined && sunset.getTime() <= now.getTime()) {
    return nonBreaking(
      `${subject}-removed-after-sunset`,
      location,
      `deprecated ${name} was removed after its sunset (${day(sunset)}), as announced`,
    )
  }
  return breaking(
    `${subject}-removed-before-sunset`,
    location,
    sunset === undefined
      ? `deprecated ${name} was removed, but it announced no x-sunset date`
      : `deprecated ${name} was removed before its sunset (${day(sunset)})`,
  )
}

/**
 * Deprecation and sunset of an element both specs have.
 * @param subject the rule prefix of a new deprecation: `operation-deprecated`, ...
 * @param what how messages name it: `the operation`, `limit`
 */
export function compareLifecycle(
  base: Json,
  head: Json,
  subject: string,
  what: string,
  location: string,
  now: Date,
): Change[] {
  const changes: Change[] = []
  const before = sunsetOf(base)
  const after = sunsetOf(head)
  const invalid = unreadable(
    base,
    head,
    'x-sunset',
    'sunset-invalid',
    location,
    `when ${what} goes`,
  )
  if (invalid.length > 0) return invalid
  if (!isDeprecated(base) && isDeprecated(head)) {
    if (after instanceof Date && after.getTime() < now.getTime()) {
      changes.push(
        breaking(
          'sunset-too-soon',
          location,
          `${what} was deprecated with an x-sunset already passed (${day(after)}): clients get no notice before it goes`,
        ),
      )
    } else {
      changes.push(
        nonBreaking(
          `${subject}-deprecated`,
          location,
          after === undefined
            ? `${what} is now deprecated, without an x-sunset: removing it stays breaking until one is announced`
            : `${what} is now deprecated`,
        ),
      )
    }
  } else if (isDeprecated(base) && !isDeprecated(head)) {
    changes.push(nonBreaking('deprecation-withdrawn', location, `${what} is no longer deprecated`))
  }
  if (before instanceof Date && after instanceof Date && after.getTime() !== before.getTime()) {
    const moved = `x-sunset moved from ${day(before)} to ${day(after)}`
    changes.push(
      after < before
        ? breaking(
            'sunset-brought-forward',
            location,
            `${moved}: removal comes sooner than announced`,
          )
        : nonBreaking('sunset-postponed', location, moved),
    )
  } else if (before instanceof Date && after === undefined && isDeprecated(head)) {
    changes.push(
      nonBreaking(
        'sunset-removed',
        location,
        `x-sunset ${day(before)} was removed: ${what} stays until a new date is announced`,
      ),
    )
  }
  return changes
}
