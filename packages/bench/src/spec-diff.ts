/**
 * `pnpm bench --spec-diff`: the speed of `pnpm spec:diff` on a large spec, reported beside the
 * spec's size. The engine lives in `@petstore/scripts` as TypeScript run by tsx, so the bench runs
 * its timing script (`scripts/src/spec-diff/bench.ts`) as a child process and reads its JSON.
 */
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'

export interface SpecDiffBenchResult {
  operations: number
  schemas: number
  bytes: number
  lines: number
  changes: number
  runsMs: number[]
  medianMs: number
}

/** The target for a spec of this size on this machine. */
export const SPEC_DIFF_TARGET_MS = 2000

export function runSpecDiffBench(repoRoot: string, runs = 5): SpecDiffBenchResult {
  const scripts = join(repoRoot, 'scripts')
  const tsx = createRequire(join(scripts, 'package.json')).resolve('tsx/cli')
  const run = spawnSync(
    process.execPath,
    [tsx, join(scripts, 'src/spec-diff/bench.ts'), '--runs', String(runs)],
    { cwd: repoRoot, encoding: 'utf8' },
  )
  if (run.status !== 0) throw new Error(`spec:diff bench failed: ${run.stderr}`)
  return JSON.parse(run.stdout) as SpecDiffBenchResult
}

const thousands = (n: number) => n.toLocaleString('en-US')

export function renderSpecDiffReport(result: SpecDiffBenchResult): string {
  const ratio = result.medianMs / SPEC_DIFF_TARGET_MS
  return [
    '## spec:diff on a large spec',
    '',
    'A generated OpenAPI 3.1 spec against a copy with one change (a property made required), both',
    'read from files: parse, resolve `$ref`s, classify. Each run in one process, the first cold.',
    '',
    '| spec | size | changes found | runs (ms) | median | of the 2 s target |',
    '| --- | --- | --- | --- | --- | --- |',
    `| ${thousands(result.operations)} operations, ${thousands(result.schemas)} schemas | ` +
      `${(result.bytes / 1e6).toFixed(1)} MB, ${thousands(result.lines)} lines | ${result.changes} | ` +
      `${result.runsMs.join(', ')} | ${thousands(result.medianMs)} ms | ${(ratio * 100).toFixed(0)}% |`,
    '',
  ].join('\n')
}
