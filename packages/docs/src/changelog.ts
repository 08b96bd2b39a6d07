/**
 * The API's changelog, read from the release history in `spec/released/` (`<version>.yaml` and
 * the days in `dates.yaml`, kept by `pnpm version-packages`): each version compared with the
 * one before by the `spec:diff` engine, newest first, and the edited spec as "Unreleased" while
 * it differs from the last release. Rendered by `changelog-page.ts` and `changelog-feed.ts`.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import {
  type Change,
  CURRENT_SPEC,
  diffSpecs,
  type Json,
  loadSpec,
  operationsOf,
  RELEASE_DATES,
  RELEASED_DIR,
  readReleaseDates,
  releasedSpecOf,
  versionBump,
} from '@petstore/scripts/spec-diff'
import { lifecycleOf } from '@petstore/types/openapi'

/** An operation's deprecation as the newer spec states it, as `YYYY-MM-DD` days. */
export interface Deprecation {
  deprecatedAt?: string
  sunset?: string
}

export interface ChangelogChange extends Change {
  /** Set when the operation the change is about is deprecated in the newer spec. */
  deprecation?: Deprecation
}

export interface ChangelogEntry {
  version: string
  /** `false` for the edited spec that no release has shipped yet. */
  released: boolean
  /** The release day (`YYYY-MM-DD`), or for an unreleased entry the time of the build. */
  updated: Date
  /** The version compared with; absent for the first release. */
  previous?: string
  changes: ChangelogChange[]
}

/** One spec of the history: a release with its day, or the edited spec. */
export interface HistorySpec {
  version: string
  doc: Json
  /** The release day; absent for the edited spec. */
  day?: string
}

const semver = /^\d+\.\d+\.\d+(?:[-+].*)?$/
const emptySpec: Json = { openapi: '3.1.0', paths: {} }

/** Ascending semver order. */
export const byVersion = (a: string, b: string): number =>
  a === b ? 0 : versionBump(a, b) === 'backwards' ? 1 : -1

/** Operations are matched as the engine matches them: method and path, parameter names blank. */
const operationKey = (label: string) => label.replaceAll(/\{[^}]*\}/g, '{}')

function dayOf(value: unknown): string | undefined {
  if (typeof value !== 'string' && !(value instanceof Date)) return undefined
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString().slice(0, 10)
}

/** Each change about an operation deprecated in `head` carries its deprecation and sunset days. */
function withDeprecations(changes: Change[], head: Json): ChangelogChange[] {
  const operations = new Map(
    [...operationsOf(head).values()].map((operation) => [operation.key, operation.op]),
  )
  return changes.map((change) => {
    const op = operations.get(operationKey(change.location))
    if (op?.deprecated !== true) return change
    const deprecation: Deprecation = {}
    const { deprecatedAt, sunset } = lifecycleOf(op)
    if (deprecatedAt) deprecation.deprecatedAt = deprecatedAt.toISOString().slice(0, 10)
    if (sunset) deprecation.sunset = sunset.toISOString().slice(0, 10)
    return { ...change, deprecation }
  })
}

/**
 * The changelog of `releases` (any order, each with its day) and, when it differs from the
 * newest release, the edited spec `current`. A sunset counts as passed when the version that
 * removes the operation was released (the build's `now` for the unreleased one).
 */
export function changelogOf(
  releases: HistorySpec[],
  current: HistorySpec | undefined,
  now: Date,
): ChangelogEntry[] {
  const sorted = [...releases].sort((a, b) => byVersion(a.version, b.version))
  const entries: ChangelogEntry[] = []
  let previous: HistorySpec | undefined
  for (const release of sorted) {
    const updated = new Date(`${release.day}T00:00:00Z`)
    const changes = diffSpecs(previous?.doc ?? emptySpec, release.doc, { now: updated })
    entries.push({
      version: release.version,
      released: true,
      updated,
      ...(previous && { previous: previous.version }),
      changes: withDeprecations(changes, release.doc),
    })
    previous = release
  }
  if (current) {
    const changes = diffSpecs(previous?.doc ?? emptySpec, current.doc, { now })
    if (changes.length > 0 || current.version !== previous?.version) {
      entries.push({
        version: current.version,
        released: false,
        updated: now,
        ...(previous && { previous: previous.version }),
        changes: withDeprecations(changes, current.doc),
      })
    }
  }
  return entries.reverse()
}

/**
 * Reads the history of the repository at `root`: every `spec/released/<version>.yaml` with its
 * day from `spec/released/dates.yaml`, and `spec/openapi.yaml`. Fails naming a release that has
 * no day.
 */
export function readChangelog(root: string, now = new Date()): ChangelogEntry[] {
  const days = readReleaseDates(root)
  const versions = readdirSync(join(root, RELEASED_DIR))
    .filter((name) => name.endsWith('.yaml') && semver.test(name.slice(0, -'.yaml'.length)))
    .map((name) => name.slice(0, -'.yaml'.length))
  const releases = versions.map((version): HistorySpec => {
    const day = days[version]
    if (!day || dayOf(day) !== day) {
      throw new Error(`${RELEASE_DATES} gives no day (YYYY-MM-DD) for ${releasedSpecOf(version)}`)
    }
    return { version, day, doc: loadSpec(join(root, releasedSpecOf(version))).doc }
  })
  const current = loadSpec(join(root, CURRENT_SPEC))
  return changelogOf(releases, { version: current.version, doc: current.doc }, now)
}
