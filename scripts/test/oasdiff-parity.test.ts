/**
 * The parity table: every oasdiff ERR (and WARN) rule that applies to our spec has a fixture in
 * `fixtures/oasdiff-parity.yaml`, spec:diff classifies it exactly as the fixture says, and the
 * rule it reports is the one the registry (`rules.ts`) lists for it; `OASDIFF.md` is current.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
import { diffSpecs } from '../src/spec-diff/diff.js'
import { oasdiffIdsOf } from '../src/spec-diff/oasdiff-ids.js'
import {
  NOT_APPLICABLE,
  OASDIFF_ERR_RULES,
  OASDIFF_WARN_RULES,
} from '../src/spec-diff/oasdiff-rules.js'
import {
  PARITY_FILE,
  PARITY_FIXTURES,
  POLICY_FIXTURES,
  parityMarkdown,
  parityRows,
} from '../src/spec-diff/parity.js'
import { RULES } from '../src/spec-diff/rules.js'
import { type ParityFixture, parityDocument } from './parity-fixture.js'

const fixtures: Record<string, ParityFixture> = parse(readFileSync(PARITY_FIXTURES, 'utf8'))
/** Fixtures give sunsets far in the past (2000) or future (2999), so any date between works. */
const now = new Date('2026-06-01T00:00:00Z')
const reported = (fixture: ParityFixture) =>
  diffSpecs(parityDocument(fixture.base), parityDocument(fixture.head), { now })

describe('oasdiff parity', () => {
  const rows = parityRows()

  const oasdiffRules = [...OASDIFF_ERR_RULES, ...OASDIFF_WARN_RULES]

  it('names every oasdiff ERR and WARN rule once, each covered or not applicable', () => {
    expect(new Set(oasdiffRules).size).toBe(oasdiffRules.length)
    expect(rows.filter((r) => r.coverage === 'missing').map((r) => r.oasdiff)).toEqual([])
    const listed = Object.values(RULES).flatMap((info) => info.oasdiff)
    expect(listed.filter((id) => !oasdiffRules.includes(id))).toEqual([])
    expect(listed.length, 'an oasdiff rule is listed by two of our rules').toBe(
      new Set(listed).size,
    )
  })

  it('has a fixture for every applicable rule and none for the others', () => {
    const applicable = oasdiffRules.filter((id) => NOT_APPLICABLE[id] === undefined)
    expect(Object.keys(fixtures).sort()).toEqual([...applicable].sort())
  })

  it.each(rows.filter((r) => r.coverage !== 'not applicable'))(
    '$oasdiff -> $ours',
    ({ oasdiff, ours }) => {
      const fixture = fixtures[oasdiff] as ParityFixture
      const changes = reported(fixture)
      expect(changes.map((c) => `${c.kind} ${c.rule}`)).toEqual(fixture.expect)
      // One change, one id: the change that names the rule is the one rules.ts lists it under.
      const named = changes.filter((c) => oasdiffIdsOf(c).includes(oasdiff))
      expect(
        named.map((c) => c.rule),
        `rules.ts lists ${oasdiff} under ${ours}`,
      ).toEqual([ours])
      for (const change of changes) expect(oasdiffIdsOf(change).length).toBeLessThanOrEqual(1)
      if (!changes.some((c) => c.kind === 'breaking')) {
        expect(fixture.note, `say why ${oasdiff} does not break a client`).toBeTruthy()
      }
      for (const change of changes) expect(Object.keys(RULES)).toContain(change.rule)
    },
  )

  it('expands every fragment, here, in spec-diff-fragments.yaml and oasdiff-policies.yaml, into valid OpenAPI 3.1', () => {
    const fragments: Record<string, ParityFixture> = {
      ...parse(
        readFileSync(new URL('./fixtures/spec-diff-fragments.yaml', import.meta.url), 'utf8'),
      ),
      ...parse(readFileSync(POLICY_FIXTURES, 'utf8')),
    }
    const work = mkdtempSync(join(tmpdir(), 'petstore-parity-'))
    try {
      const files = Object.entries({ ...fixtures, ...fragments }).flatMap(([name, fixture]) =>
        (['base', 'head'] as const).map((side) => {
          const file = join(work, `${name}.${side}.yaml`)
          writeFileSync(file, stringify(parityDocument(fixture[side])))
          return file
        }),
      )
      const redocly = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js')
      // Redocly exits 1 when any document has an error (the `minimal` rules include `struct`).
      const run = spawnSync(
        process.execPath,
        [redocly, 'lint', '--extends=minimal', '--format=stylish', ...files],
        { cwd: work, encoding: 'utf8' },
      )
      expect(run.status, `${run.stdout}${run.stderr}`).toBe(0)
    } finally {
      rmSync(work, { recursive: true, force: true })
    }
  })

  it('is the committed OASDIFF.md (regenerate with `pnpm --filter @petstore/scripts spec-diff:parity`)', () => {
    expect(readFileSync(PARITY_FILE, 'utf8')).toBe(parityMarkdown(fixtures))
  })
})
