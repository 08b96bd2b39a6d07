/**
 * The release check `pnpm test` runs: a spec change ships as a release of every published package
 * built from the spec, announced by pending changesets of at least the bump the change calls for
 * (breaking: major; non-breaking: minor), and the spec's own `info.version` moves the same way.
 * `pnpm spec:diff` prints what it requires (`releaseLine`).
 */
import { publishedPackages } from '../workspace.js'
import type { Change } from './change.js'
import type { DiffOptions } from './diff.js'
import { atLeast, BUMPS, type Bump, pendingBumps } from './pending-changesets.js'
import { type DiffResult, summaryLine } from './report.js'
import { diffFiles } from './run.js'
import { nextVersion, versionBump } from './spec-version.js'

export interface ReleaseCheckInput extends DiffOptions {
  baseFile: string
  headFile: string
  changesetDir: string
  /** The published packages built from the spec: every one a spec change affects. */
  packages: string[]
}

export interface ReleaseCheck {
  ok: boolean
  diff: DiffResult
  /** The bump the spec's changes call for. */
  needed: Bump
  /** `info.version`: the baseline's, the edited spec's, and the lowest the changes allow. */
  version: { base: string; head: string; required: string }
  /**
   * Each package's largest pending bump, in `packages` order. Read only when the spec changed,
   * so that `spec:diff` of an unchanged spec never depends on `.changeset/`.
   */
  pending: { name: string; bump: Bump }[]
  /** One sentence per problem, naming the packages, rules and versions involved. */
  problems: string[]
}

export function checkRelease(input: ReleaseCheckInput): ReleaseCheck {
  const diff = diffFiles(input.baseFile, input.headFile, input)
  const breaking = diff.changes.filter((c) => c.kind === 'breaking')
  const needed: Bump = breaking.length > 0 ? 'major' : diff.changes.length > 0 ? 'minor' : 'none'
  const bumps = needed === 'none' ? new Map<string, Bump>() : pendingBumps(input.changesetDir)
  const pending = input.packages.map((name) => ({ name, bump: bumps.get(name) ?? 'none' }))
  const problems: string[] = []

  const missing = pending.filter(({ bump }) => !atLeast(bump, needed)).map(({ name }) => name)
  if (missing.length > 0) {
    problems.push(changesetProblem(needed, needed === 'major' ? breaking : diff.changes, missing))
  }

  const { version: base } = diff.base
  const { version: head } = diff.head
  const required = nextVersion(base, needed)
  const moved = versionBump(base, head)
  if (moved === 'backwards') {
    problems.push(`spec info.version went backwards: ${base} -> ${head}.`)
  } else if (!atLeast(moved, needed)) {
    const why =
      needed === 'major' ? 'breaking changes need' : 'non-breaking additions need at least'
    problems.push(
      `spec info.version is ${head}, but ${why} a ${needed} bump from ${base} (${required}).`,
    )
  }
  return {
    ok: problems.length === 0,
    diff,
    needed,
    version: { base, head, required },
    pending,
    problems,
  }
}

/** Why the pending changesets fall short of `needed`, and what to run. */
function changesetProblem(needed: Bump, changes: Change[], missing: string[]): string {
  const [kind, changeset, say] =
    needed === 'major'
      ? ['breaking', 'major changeset', 'what clients must change']
      : ['non-breaking', 'changeset of at least minor', 'what clients can now do']
  return (
    `${changes.length} ${kind} spec change(s) (${listRules(changes)}) but no pending ${changeset} ` +
    `for ${missing.join(', ')}: run \`pnpm changeset\`, choose ${needed} for each and say ${say}.`
  )
}

const listRules = (changes: Change[]) => changes.map((c) => `${c.rule} at ${c.location}`).join('; ')

/** The check's outcome as text: the diff summary, then each problem. */
export function describeCheck({ ok, diff, problems }: ReleaseCheck): string {
  const head = `release check ${ok ? 'passed' : 'failed'}; ${summaryLine(diff)}`
  return [head, ...problems.map((p) => `- ${p}`)].join('\n')
}

/**
 * What the release check requires of this spec change, on one line.
 *
 * @example
 * releaseLine(check) // 'release: spec info.version 1.0.0 -> at least 1.1.0 (minor); changesets needed: minor for @petstore/types, @petstore/client (pending: minor for @petstore/types; none for @petstore/client)'
 */
export function releaseLine({ needed, version, pending }: ReleaseCheck): string {
  if (needed === 'none') {
    return `release: no spec change, so no info.version bump or changeset needed (${version.base})`
  }
  const names = pending.map(({ name }) => name).join(', ')
  return (
    `release: spec info.version ${version.base} -> at least ${version.required} (${needed}); ` +
    `changesets needed: ${needed} for ${names} (pending: ${pendingText(pending)})`
  )
}

/** `none`, or the packages grouped by pending bump, largest first. */
function pendingText(pending: ReleaseCheck['pending']): string {
  if (pending.every(({ bump }) => bump === 'none')) return 'none'
  return [...BUMPS]
    .reverse()
    .map((bump) => [bump, pending.filter((p) => p.bump === bump).map((p) => p.name)] as const)
    .filter(([, names]) => names.length > 0)
    .map(([bump, names]) => `${bump} for ${names.join(', ')}`)
    .join('; ')
}

/**
 * The packages of this workspace that are published. Each is built from the spec: types
 * embeds and types it, and the client and server are built on types.
 */
export function packagesBuiltFromSpec(): string[] {
  return publishedPackages().map((pkg) => pkg.manifest.name)
}
