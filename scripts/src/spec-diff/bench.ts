/**
 * The speed of `spec:diff` on a large spec: a generated document of `LARGE_SPEC` size against a
 * copy with one change, both read from files as the CLI reads them, timed over a few runs. Prints
 * one JSON object; `pnpm bench --spec-diff` (packages/bench) reports it beside the spec's size.
 *
 *   tsx scripts/src/spec-diff/bench.ts [--runs <n>]
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { LARGE_SPEC, largeSpec, toYaml, withOneChange } from './large-spec.js'
import { diffFiles } from './run.js'

export interface SpecDiffBench {
  operations: number
  schemas: number
  bytes: number
  lines: number
  changes: number
  /** Milliseconds of each run: read, parse and resolve both files, then classify. */
  runsMs: number[]
  medianMs: number
}

export function benchSpecDiff(runs = 5): SpecDiffBench {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-spec-diff-bench-'))
  try {
    const base = largeSpec()
    const text = toYaml(base)
    const baseFile = join(dir, 'base.yaml')
    const headFile = join(dir, 'head.yaml')
    writeFileSync(baseFile, text)
    writeFileSync(headFile, toYaml(withOneChange(base)))
    let changes = 0
    const runsMs: number[] = []
    for (let run = 0; run < runs; run++) {
      const start = performance.now()
      changes = diffFiles(baseFile, headFile).changes.length
      runsMs.push(Math.round(performance.now() - start))
    }
    const sorted = [...runsMs].sort((a, b) => a - b)
    return {
      ...LARGE_SPEC,
      bytes: statSync(baseFile).size,
      lines: text.split('\n').length - 1,
      changes,
      runsMs,
      medianMs: sorted[Math.floor(sorted.length / 2)] ?? 0,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[1]?.endsWith('bench.ts')) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } })
  process.stdout.write(`${JSON.stringify(benchSpecDiff(Number(values.runs)))}\n`)
}
