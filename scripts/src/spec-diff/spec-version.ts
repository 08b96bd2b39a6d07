/** `info.version` of the spec, compared as the semver bump from the baseline's. */
import type { Bump } from './pending-changesets.js'

const SEMVER = /^(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/

function parts(version: string): [number, number, number] {
  const match = SEMVER.exec(version)
  if (!match) throw new Error(`info.version ${JSON.stringify(version)} is not semver (x.y.z)`)
  return [Number(match[1]), Number(match[2]), Number(match[3])]
}

/** The bump from `base` to `head`, or `'backwards'` when `head` is lower. */
export function versionBump(base: string, head: string): Bump | 'backwards' {
  const from = parts(base)
  const to = parts(head)
  const bumps = ['major', 'minor', 'patch'] as const
  const i = from.findIndex((n, at) => n !== to[at])
  if (i === -1) return 'none'
  return (to[i] ?? 0) > (from[i] ?? 0) ? (bumps[i] ?? 'patch') : 'backwards'
}

/** The version a bump of `base` leads to, e.g. `nextVersion('1.4.2', 'major')` is `2.0.0`. */
export function nextVersion(base: string, bump: Bump): string {
  const [major, minor, patch] = parts(base)
  if (bump === 'major') return `${major + 1}.0.0`
  if (bump === 'minor') return `${major}.${minor + 1}.0`
  if (bump === 'patch') return `${major}.${minor}.${patch + 1}`
  return base
}
