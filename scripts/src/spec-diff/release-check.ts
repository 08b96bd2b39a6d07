/**
 * The release check `pnpm test` runs: a breaking spec change must ship as a major release of
 * every published package built from the spec, announced by pending major changesets, and the
 * spec's own `info.version` must move the same way (breaking: major; additions: at least minor).
 */
import { publishedPackages } from '../workspace.js'
import type { Change } from './change.js'
import type { DiffOptions } from './diff.js'
import { atLeast, type Bump, pendingBumps } from './pending-changesets.js'
import { type DiffResult, summaryLine } from './report.js'
import { diffFiles } from './run.js'
import { nextVersion, versionBump } from './spec-version.js'

export interface ReleaseCheckInput extends DiffOptions {
  baseFile: string
  headFile: string
  changesetDir: string
  /** The published packages built from the spec: every one a breaking change affects. */
  packages: string[]
}

export interface ReleaseCheck {
  ok: boolean
  diff: DiffResult
  /** The bump the spec's changes call for. */
  needed: Bump
  /** One sentence per problem, naming the packages, rules and versions involved. */
  problems: string[]
}

export function checkRelease(input: ReleaseCheckInput): ReleaseCheck {
  const diff = diffFiles(input.baseFile, input.headFile, input)
  const breaking = diff.changes.filter((c) => c.kind === 'breaking')
  const needed: Bump = breaking.length > 0 ? 'major' : diff.changes.length > 0 ? 'minor' : 'none'
  const problems: string[] = []

  if (needed === 'major') {
    const bumps = pendingBumps(input.changesetDir)
    const missing = input.packages.filter((name) => bumps.get(name) !== 'major')
    if (missing.length > 0) {
      problems.push(
        `${breaking.length} breaking spec change(s) (${listRules(breaking)}) but no pending major changeset for ${missing.join(', ')}: ` +
          'run `pnpm changeset`, choose major for each and say what clients must change.',
      )
    }
  }

  const { version: from } = diff.base
  const { version: to } = diff.head
  const moved = versionBump(from, to)
  if (moved === 'backwards') {
    problems.push(`spec info.version went backwards: ${from} -> ${to}.`)
  } else if (!atLeast(moved, needed)) {
    const why =
      needed === 'major' ? 'breaking changes need' : 'non-breaking additions need at least'
    problems.push(
      `spec info.version is ${to}, but ${why} a ${needed} bump from ${from} (${nextVersion(from, needed)}).`,
    )
  }
  return { ok: problems.length === 0, diff, needed, problems }
}

const listRules = (changes: Change[]) => changes.map((c) => `${c.rule} at ${c.location}`).join('; ')

/** The check's outcome as text: the diff summary, then each problem. */
export function describeCheck({ ok, diff, problems }: ReleaseCheck): string {
  const head = `release check ${ok ? 'passed' : 'failed'}; ${summaryLine(diff)}`
  return [head, ...problems.map((p) => `- ${p}`)].join('\n')
}

/**
 * The packages of this workspace that are published. Each is built from the spec: types
 * embeds and types it, and the client and server are built on types.
 */
export function packagesBuiltFromSpec(): string[] {
  return publishedPackages().map((pkg) => pkg.manifest.name)
}
