/**
 * The one reader of the lifecycle extensions an operation, parameter or property may carry:
 * `deprecated` with `x-deprecated-at` (sent as `Deprecation`, RFC 9745), `x-sunset` (sent as
 * `Sunset`, RFC 8594) and `x-successor` (the operationId that replaces it), and
 * `x-stability-level` (`draft`, `alpha`, `beta`, `stable`, as oasdiff reads it). The server's
 * headers, the docs' badges and changelog and spec:diff all read them here, so a date or a level
 * cannot mean one thing to one of them and another to the next. Exported with the OpenAPI reader
 * (`@petstore/types/openapi`).
 *
 * @example
 * ```ts
 * import { lifecycleOf } from '@petstore/types/openapi'
 * const { deprecated, sunset, stability, problems } = lifecycleOf(operation)
 * if (problems.length > 0) throw new Error(problems.map((p) => p.message).join('; '))
 * ```
 */

/** The levels of `x-stability-level`, lowest first; `stable` is the default. */
export const stabilityLevels = ['draft', 'alpha', 'beta', 'stable'] as const

export type StabilityLevel = (typeof stabilityLevels)[number]

export type LifecycleExtension =
  | 'x-deprecated-at'
  | 'x-sunset'
  | 'x-successor'
  | 'x-stability-level'

/** An extension that is set but cannot be read, and why. */
export interface LifecycleProblem {
  extension: LifecycleExtension
  value: unknown
  /** e.g. `x-sunset "soon" is not an RFC 3339 date or date-time` */
  message: string
}

export interface Lifecycle {
  /** `deprecated: true`. */
  deprecated: boolean
  /** `x-deprecated-at`, when it is a date. */
  deprecatedAt?: Date
  /** `x-sunset`, when it is a date. */
  sunset?: Date
  /** `x-successor`, when it is an operationId (a non-empty string). */
  successor?: string
  /** `x-stability-level`: `stable` when absent, `undefined` when not one of `stabilityLevels`. */
  stability: StabilityLevel | undefined
  /** Every lifecycle extension set to something this reader cannot read; empty when none. */
  problems: LifecycleProblem[]
}

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2})))?$/

/**
 * Reads a lifecycle date: an RFC 3339 full-date (`2030-12-05`, midnight UTC) or date-time
 * (`2030-12-05T00:00:00Z`), or a `Date` (what a YAML 1.1 reader makes of a timestamp). Anything
 * else, a day that is not in the calendar (`2030-02-30`) included, is `undefined`.
 *
 * @example
 * ```ts
 * lifecycleDate('2030-12-05') // 2030-12-05T00:00:00.000Z
 * lifecycleDate('2030-02-30') // undefined
 * lifecycleDate('soon') // undefined
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc3339#section-5.6
 */
export function lifecycleDate(value: unknown): Date | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value
  if (typeof value !== 'string') return undefined
  const match = RFC3339.exec(value)
  if (match === null) return undefined
  const [year, month, day, hour = 0, minute = 0, second = 0, offsetHour = 0, offsetMinute = 0] =
    match.slice(1).map((part) => (part === undefined ? undefined : Number(part)))
  const inMonth = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate()
  const valid =
    Number(month) >= 1 &&
    Number(month) <= 12 &&
    Number(day) >= 1 &&
    Number(day) <= inMonth &&
    Number(hour) <= 23 &&
    Number(minute) <= 59 &&
    Number(second) <= 60 &&
    Number(offsetHour) <= 23 &&
    Number(offsetMinute) <= 59
  if (!valid) return undefined
  const date = new Date(match[4] === undefined ? `${value}T00:00:00Z` : value)
  return Number.isNaN(date.getTime()) ? undefined : date
}

const shown = (value: unknown) =>
  value instanceof Date ? value.toISOString() : (JSON.stringify(value) ?? String(value))

/**
 * The lifecycle of an Operation, Parameter or Schema Object, its extensions validated: a date
 * that is not one, a sunset before the deprecation, a successor that is not an operationId or a
 * level that is not one of `stabilityLevels` is left out and named in `problems`.
 *
 * @example
 * ```ts
 * lifecycleOf({ deprecated: true, 'x-sunset': '2030-12-05', 'x-stability-level': 'beta' })
 * // { deprecated: true, sunset: 2030-12-05T00:00:00.000Z, stability: 'beta', problems: [] }
 * lifecycleOf({ 'x-sunset': 'soon' }).problems[0]?.message
 * // 'x-sunset "soon" is not an RFC 3339 date or date-time'
 * ```
 */
export function lifecycleOf(node: object): Lifecycle {
  const fields = node as Record<string, unknown>
  const problems: LifecycleProblem[] = []
  const problem = (extension: LifecycleExtension, message: string) =>
    problems.push({ extension, value: fields[extension], message })
  const date = (extension: 'x-deprecated-at' | 'x-sunset') => {
    const value = fields[extension]
    if (value === undefined) return undefined
    const read = lifecycleDate(value)
    if (read === undefined) {
      problem(extension, `${extension} ${shown(value)} is not an RFC 3339 date or date-time`)
    }
    return read
  }
  const lifecycle: Lifecycle = {
    deprecated: fields.deprecated === true,
    stability: undefined,
    problems,
  }
  const deprecatedAt = date('x-deprecated-at')
  const sunset = date('x-sunset')
  if (deprecatedAt) lifecycle.deprecatedAt = deprecatedAt
  if (sunset && deprecatedAt && sunset < deprecatedAt) {
    problem('x-sunset', `x-sunset ${shown(fields['x-sunset'])} is earlier than x-deprecated-at`)
  } else if (sunset) {
    lifecycle.sunset = sunset
  }
  const successor = fields['x-successor']
  if (typeof successor === 'string' && successor !== '') lifecycle.successor = successor
  else if (successor !== undefined) {
    problem('x-successor', `x-successor ${shown(successor)} is not an operationId`)
  }
  const level = fields['x-stability-level'] ?? 'stable'
  lifecycle.stability = stabilityLevels.find((known) => known === level)
  if (lifecycle.stability === undefined) {
    problem(
      'x-stability-level',
      `x-stability-level ${shown(level)} is not one of ${stabilityLevels.join(', ')}`,
    )
  }
  return lifecycle
}
