/**
 * `OASDIFF.md`: each oasdiff ERR rule beside the `spec:diff` rule that reports it, generated from
 * the registry (`rules.ts`) and the fixture table that proves each line
 * (`test/fixtures/oasdiff-parity.yaml`).
 *
 *   tsx scripts/src/spec-diff/parity.ts   # rewrites OASDIFF.md
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import {
  NOT_APPLICABLE,
  OASDIFF_COMMIT,
  OASDIFF_ERR_RULES,
  OASDIFF_WARN_RULES,
} from './oasdiff-rules.js'
import { RULES } from './rules.js'

export const PARITY_FILE = fileURLToPath(new URL('./OASDIFF.md', import.meta.url))
export const PARITY_FIXTURES = fileURLToPath(
  new URL('../../test/fixtures/oasdiff-parity.yaml', import.meta.url),
)
/** spec:diff's policies beside oasdiff's, each with a fixture (`oasdiff-policies.test.ts`). */
export const POLICY_FIXTURES = fileURLToPath(
  new URL('../../test/fixtures/oasdiff-policies.yaml', import.meta.url),
)

/** One policy: what we do, what oasdiff does, why, the oasdiff tests it explains, a fixture. */
export interface PolicyFixture {
  policy: string
  oasdiff: string
  why: string
  tests: string[]
  expect: string[]
  base: Record<string, unknown>
  head: Record<string, unknown>
}

export type Coverage = 'own rule' | 'catch-all' | 'not applicable' | 'missing'

export interface ParityRow {
  oasdiff: string
  level: 'ERR' | 'WARN'
  coverage: Coverage
  /** Our rule, or the reason it does not apply. */
  ours: string
}

/** Our rule for each oasdiff ERR rule, then each WARN rule, in `checker/rules.go` order. */
export function parityRows(): ParityRow[] {
  const ourRule = new Map(
    Object.entries(RULES).flatMap(([rule, info]) => info.oasdiff.map((id) => [id, rule] as const)),
  )
  const row =
    (level: ParityRow['level']) =>
    (id: string): ParityRow => {
      const reason = NOT_APPLICABLE[id]
      if (reason !== undefined)
        return { oasdiff: id, level, coverage: 'not applicable', ours: reason }
      const rule = ourRule.get(id)
      if (rule === undefined) return { oasdiff: id, level, coverage: 'missing', ours: '' }
      const coverage = rule === 'schema-changed' ? 'catch-all' : 'own rule'
      return { oasdiff: id, level, coverage, ours: rule }
    }
  return [...OASDIFF_ERR_RULES.map(row('ERR')), ...OASDIFF_WARN_RULES.map(row('WARN'))]
}

/**
 * spec:diff against oasdiff's own checker tests (`oasdiff-agreement.ts`, run on a checkout of
 * oasdiff at `OASDIFF_COMMIT`): the base/revision pairs its tests diff, and how many of them both
 * call breaking or both call safe. Measured, not derived: rerun the harness after a rule changes.
 */
export const AGREEMENT = { pairs: 252, agreed: 228, idsExpected: 312, idsNamed: 262 }

const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`

function agreementSection(policies: Record<string, PolicyFixture>): string[] {
  const { pairs, agreed, idsExpected, idsNamed } = AGREEMENT
  const differing = Object.entries(policies).filter(([, p]) => p.tests.length > 0)
  const agreeing = Object.entries(policies).filter(([, p]) => p.tests.length === 0)
  const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ')
  const row = ([name, p]: [string, PolicyFixture]) =>
    `| ${cell(p.policy)} | ${cell(p.oasdiff)} | ${p.expect.join('; ')} | ${cell(p.why)} | \`${name}\`${p.tests.length > 0 ? ` (${p.tests.length} test${p.tests.length === 1 ? '' : 's'})` : ''} |`
  const header = [
    '| policy | oasdiff | spec:diff reports | why a team wants it | fixture |',
    '| --- | --- | --- | --- | --- |',
  ]
  return [
    "## Against oasdiff's own checker tests",
    '',
    `oasdiff's checker tests (\`checker/*_test.go\` at commit \`${OASDIFF_COMMIT.slice(0, 12)}\`) diff ${pairs} ` +
      'base/revision pairs of its `data/` folder (a test of a non-default configuration, or one that ' +
      'edits a document in code, is left out) and say what they expect: the rule ids each asserts, ' +
      'breaking when one is of level WARN or ERR. Where a test runs a single check, only our changes ' +
      `about what that check reads count. spec:diff agrees on "breaking or not" for ${agreed} of them ` +
      `(${percent(agreed, pairs)}); its JSON report names ${idsNamed} of the ${idsExpected} rule ids the tests expect, one id per change. ` +
      `Every one of the ${pairs - agreed} pairs left is a policy below, with a fixture in ` +
      '`scripts/test/fixtures/oasdiff-policies.yaml` (`oasdiff-policies.test.ts`).',
    '',
    'To measure again, with a checkout of oasdiff (never committed here):',
    '',
    '```sh',
    'git clone https://github.com/oasdiff/oasdiff /tmp/oasdiff',
    `git -C /tmp/oasdiff checkout ${OASDIFF_COMMIT}`,
    'pnpm --filter @petstore/scripts spec-diff:agreement /tmp/oasdiff   # --all lists every pair',
    '```',
    '',
    "It prints the count, then each pair where the verdicts differ, with oasdiff's ids, ours and the",
    'policy that explains it (`none (unexplained)` is a bug to fix or a policy to write).',
    '',
    '### Where spec:diff differs from oasdiff, on purpose',
    '',
    ...header,
    ...differing.map(row),
    '',
    '### Policies oasdiff agrees with, or no test of its measures',
    '',
    ...header,
    ...agreeing.map(row),
    '',
  ]
}

export function parityMarkdown(
  fixtures: Record<string, { expect: string[] }> = parse(readFileSync(PARITY_FIXTURES, 'utf8')),
  policies: Record<string, PolicyFixture> = parse(readFileSync(POLICY_FIXTURES, 'utf8')),
): string {
  const all = parityRows()
  const rows = all.filter((r) => r.level === 'ERR')
  const warn = all.filter((r) => r.level === 'WARN')
  const count = (coverage: Coverage, of = rows) => of.filter((r) => r.coverage === coverage).length
  const applicable = rows.length - count('not applicable')
  const missing = rows.filter((r) => r.coverage === 'missing').map((r) => `\`${r.oasdiff}\``)
  const lines = [
    '# spec:diff against oasdiff',
    '',
    '<!-- Generated by `pnpm --filter @petstore/scripts spec-diff:parity` from `rules.ts`; do not edit. -->',
    '',
    `oasdiff (commit \`${OASDIFF_COMMIT.slice(0, 12)}\`, \`checker/rules.go\`) has ${rows.length} rules of ` +
      `level ERR; ${applicable} apply to a document like ours. Of those, ${count('own rule')} are ` +
      `reported by a rule of our own, ${count('catch-all')} only by the fail-closed \`schema-changed\` ` +
      `catch-all (a person decides), ${count('missing')} by nothing` +
      `${missing.length ? ` (${missing.join(', ')})` : ''}; ${count('not applicable')} not applicable. ` +
      `Its ${warn.length} WARN rules, where a client may break, follow: ${count('own rule', warn)} ` +
      `by a rule of our own, ${count('catch-all', warn)} by the catch-all, ${count('missing', warn)} by nothing.`,
    '',
    ...agreementSection(policies),
    "## oasdiff's rules beside ours",
    '',
    'Each line has a fixture of the same name in `scripts/test/fixtures/oasdiff-parity.yaml` (a base',
    'and a head fragment) and `scripts/test/oasdiff-parity.test.ts` checks that spec:diff reports',
    'exactly what "spec:diff reports" says, and that the change carrying the oasdiff id (one id per',
    'change, in `--json`) is reported by "our rule". Where ours is non-breaking, oasdiff errs and we',
    'do not: the fixture has a `note` saying why.',
    '',
    '| oasdiff rule | level | coverage | our rule | spec:diff reports |',
    '| --- | --- | --- | --- | --- |',
    ...all.map(({ oasdiff, level, coverage, ours }) => {
      const reports = fixtures[oasdiff]?.expect.join('; ') ?? ''
      const rule = coverage === 'not applicable' ? ours : `\`${ours}\``
      return `| \`${oasdiff}\` | ${level} | ${coverage} | ${rule} | ${reports} |`
    }),
    '',
    '## Our rules',
    '',
    '| rule | what changed | what a client must do when it breaks | oasdiff rules |',
    '| --- | --- | --- | --- |',
    ...Object.entries(RULES).map(
      ([rule, info]) =>
        `| \`${rule}\` | ${info.summary} | ${info.clientAction || '(nothing)'} | ${info.oasdiff.length} |`,
    ),
    '',
  ]
  return lines.join('\n')
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(PARITY_FILE, parityMarkdown())
  process.stdout.write(`wrote ${PARITY_FILE}\n`)
}
