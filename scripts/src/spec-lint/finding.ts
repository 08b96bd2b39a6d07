/** What the spec lint reports, whichever rule found it: Spectral's or one of our own (`lint.ts`). */

export type Severity = 'error' | 'warning' | 'info' | 'hint'

export interface Finding {
  /** The rule, e.g. `owasp:api4:2023-string-limit` or `petstore-response-example`. */
  code: string
  severity: Severity
  /** Where in the document, as keys from its root, e.g. `['paths', '/pets', 'get']`. */
  path: string[]
  message: string
}

/**
 * @example
 * formatFinding(finding) // 'error owasp:api4:2023-string-limit at paths./pets.get: Schema of type string must specify maxLength, enum, or const.'
 */
export const formatFinding = ({ severity, code, path, message }: Finding): string =>
  `${severity} ${code} at ${path.join('.')}: ${message}`

/** One line per finding, each after `prefix`: what `pnpm lint` and `pnpm dev` print. */
export const formatFindings = (findings: readonly Finding[], prefix = ''): string =>
  findings.map((finding) => `${prefix}${formatFinding(finding)}`).join('\n')

/** Most severe first; Spectral numbers them in this order, from 0. */
export const SEVERITIES: Severity[] = ['error', 'warning', 'info', 'hint']

/**
 * The one rule for what stops an edit: `pnpm lint` fails and `pnpm dev` regenerates nothing on a
 * finding at `warning` severity or above, so a spec that `pnpm dev` accepts passes `pnpm lint`.
 * `info` and `hint` findings are printed by both and block neither (Spectral's meaning of them).
 *
 * @example
 * blockingFindings(findings).length > 0 // the spec is not accepted
 */
export const blockingFindings = (findings: readonly Finding[]): Finding[] =>
  findings.filter((f) => SEVERITIES.indexOf(f.severity) <= SEVERITIES.indexOf('warning'))

/**
 * @example
 * countFindings(findings) // '1 error, 2 warnings'
 */
export function countFindings(findings: readonly Finding[]): string {
  return SEVERITIES.map((severity) => ({
    severity,
    count: findings.filter((f) => f.severity === severity).length,
  }))
    .filter(({ count }) => count > 0)
    .map(({ severity, count }) => `${count} ${severity}${count === 1 ? '' : 's'}`)
    .join(', ')
}
