/**
 * Where `pnpm bench` writes. Each mode's report is a generated file of its own, which every full
 * run replaces whole; the notes (BENCHMARKS.md: what the measurements taught, written by hand)
 * are never a destination, not even through `--out`.
 */
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { UsageError } from './args.js'

/** The bench package's directory, where its reports and notes live. */
export const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** The hand-written notes. */
export const notesFile = 'BENCHMARKS.md'

/** Each mode's generated report, relative to the package. */
export const reportFiles = {
  bench: 'RESULTS.md',
  scaleOut: 'RESULTS-SCALE-OUT.md',
} as const

export type ReportKind = keyof typeof reportFiles | 'specDiff'

/**
 * The file a run's report goes to: `out` when given (relative to the working directory), else
 * the mode's own report in a full run, else none (`--quick` and `--spec-diff` print only).
 *
 * @example
 * ```ts
 * reportPath('bench', { quick: false, out: undefined }) // '<package>/RESULTS.md'
 * reportPath('bench', { quick: false, out: 'BENCHMARKS.md' }) // throws: the notes
 * ```
 */
export function reportPath(
  kind: ReportKind,
  args: { quick: boolean; out: string | undefined },
  root = packageRoot,
): string | undefined {
  if (args.out !== undefined) {
    const out = resolve(args.out)
    if (out === resolve(root, notesFile)) {
      throw new UsageError(
        `--out=${args.out} is the bench's notes, which a run never writes; its report goes to ${kind === 'scaleOut' ? reportFiles.scaleOut : reportFiles.bench} by default`,
      )
    }
    return out
  }
  if (kind === 'specDiff' || args.quick) return undefined
  return resolve(root, reportFiles[kind])
}
