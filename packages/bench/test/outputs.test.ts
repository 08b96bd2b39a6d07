/**
 * `pnpm bench` writes its reports to files of their own and never to the notes: every mode's
 * path, the notes refused as `--out` by the built command (which leaves them byte for byte), and
 * notes that hold nothing a run generates.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { UsageError } from '../src/args.js'
import { notesFile, packageRoot, type ReportKind, reportFiles, reportPath } from '../src/outputs.js'

const notes = join(packageRoot, notesFile)
const kinds: ReportKind[] = ['bench', 'scaleOut', 'specDiff']

describe('reportPath', () => {
  it.each(kinds)('%s: a full run writes its own report, a quick one nothing', (kind) => {
    const full = reportPath(kind, { quick: false, out: undefined })
    expect(full).not.toBe(notes)
    expect(full).toBe(kind === 'specDiff' ? undefined : join(packageRoot, reportFiles[kind]))
    expect(reportPath(kind, { quick: true, out: undefined })).toBeUndefined()
    expect(reportPath(kind, { quick: true, out: '/tmp/report.md' })).toBe('/tmp/report.md')
  })

  it.each(kinds)('%s: refuses the notes as --out, however the path is written', (kind) => {
    for (const out of [notes, relative(process.cwd(), notes), `${packageRoot}/./${notesFile}`]) {
      for (const quick of [false, true]) {
        expect(() => reportPath(kind, { quick, out })).toThrow(UsageError)
      }
    }
  })
})

describe('the notes', () => {
  const text = readFileSync(notes, 'utf8')

  it('hold nothing a run generates: no report heading, no "Written by" line', () => {
    const report = readFileSync(join(packageRoot, reportFiles.bench), 'utf8')
    const generated = report.split('\n').filter((line) => /^#{1,2} |^Written by /.test(line))
    expect(generated.length).toBeGreaterThan(3)
    for (const line of generated) expect(text.split('\n')).not.toContain(line)
    expect(text).not.toMatch(/Written by `pnpm bench/)
  })

  it('are left byte for byte by `pnpm bench --out=<the notes>`, which exits 2 naming them', () => {
    const before = readFileSync(notes)
    const run = spawnSync(
      process.execPath,
      [join(packageRoot, 'dist', 'main.js'), '--quick', `--out=${notes}`],
      { cwd: packageRoot, encoding: 'utf8', timeout: 30_000 },
    )
    expect(run.status).toBe(2)
    expect(run.stderr).toContain(`--out=${notes} is the bench's notes`)
    expect(readFileSync(notes).equals(before)).toBe(true)
  })
})
