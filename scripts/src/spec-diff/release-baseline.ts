/**
 * Moves the baseline to the spec being released: `pnpm version-packages` runs this right after
 * `changeset version`, so the version commit of each release also records the spec its
 * packages were built from, and `spec:diff` then compares later edits against it. The spec is
 * also kept as `spec/released/<info.version>.yaml`, with its release day in
 * `spec/released/dates.yaml`: the history the docs' changelog is built from.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parse } from 'yaml'
import { workspaceRoot } from '../workspace.js'
import { loadSpec } from './load.js'
import { CURRENT_SPEC, RELEASE_DATES, RELEASED_SPEC, releasedSpecOf } from './paths.js'

const datesHeader = [
  '# The day (UTC) each spec in this folder was released, as `<info.version>: YYYY-MM-DD`.',
  '# Written by `pnpm version-packages` (scripts/src/spec-diff/release-baseline.ts); the docs',
  "# build dates each version of its changelog with it. A version's first day is kept.",
]

/** The release days recorded in `spec/released/dates.yaml`, by version. */
export function readReleaseDates(root = workspaceRoot): Record<string, string> {
  const file = resolve(root, RELEASE_DATES)
  if (!existsSync(file)) return {}
  const parsed: unknown = parse(readFileSync(file, 'utf8'))
  if (parsed === null || parsed === undefined) return {}
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error(`${RELEASE_DATES}: expected \`<version>: YYYY-MM-DD\` lines`)
  }
  return Object.fromEntries(Object.entries(parsed).map(([version, day]) => [version, String(day)]))
}

function recordReleaseDate(root: string, version: string, today: Date): void {
  const dates = readReleaseDates(root)
  dates[version] ??= today.toISOString().slice(0, 10)
  const lines = Object.entries(dates).map(([v, day]) => `'${v}': '${day}'`)
  writeFileSync(resolve(root, RELEASE_DATES), `${[...datesHeader, ...lines].join('\n')}\n`)
}

/** Copies the current spec to the baseline and to its versioned file, and dates the release. */
export function refreshBaseline(root = workspaceRoot, today = new Date()): void {
  const current = resolve(root, CURRENT_SPEC)
  const { version } = loadSpec(current)
  if (version === '') throw new Error(`${CURRENT_SPEC}: info.version is missing`)
  const target = resolve(root, RELEASED_SPEC)
  mkdirSync(dirname(target), { recursive: true })
  copyFileSync(current, target)
  copyFileSync(current, resolve(root, releasedSpecOf(version)))
  recordReleaseDate(root, version, today)
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  refreshBaseline()
  process.stdout.write(
    `spec:diff baseline: ${CURRENT_SPEC} copied to ${RELEASED_SPEC} and the versioned file beside it\n`,
  )
}
