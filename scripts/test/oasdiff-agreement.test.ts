/**
 * The agreement harness on a made-up checkout in oasdiff's shape (`fixtures/oasdiff-checkout/`):
 * which pairs it reads from the tests, what it takes each test to expect, where a single-check
 * test does not look, and the policy it names beside a disagreement.
 */
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { judge, oasdiffPairs } from '../src/spec-diff/oasdiff-agreement.js'

const checkout = new URL('./fixtures/oasdiff-checkout/', import.meta.url).pathname
const pairs = oasdiffPairs(checkout)
const verdicts = judge(pairs, new Date('2026-06-01T00:00:00Z'))
const named = (file: string) => file.slice(file.indexOf('/data/') + 1)
const byTest = (name: string) => verdicts.find((v) => v.pair.tests.includes(name))

describe('the agreement harness', () => {
  it('reads the pairs of the default configuration diffed from the files', () => {
    expect(pairs.map((p) => [named(p.base), named(p.revision), p.tests])).toEqual([
      [
        'data/checker/property_base.yaml',
        'data/checker/property_removed.yaml',
        ['TestPropertyRemoved'],
      ],
      [
        'data/checker/property_base.yaml',
        'data/checker/property_added.yaml',
        ['TestPropertyAddedParameterRemoved'],
      ],
      [
        'data/deprecation/with-sunset.yaml',
        'data/deprecation/no-sunset.yaml',
        ['TestBreaking_SunsetDeletedForDeprecatedEndpoint'],
      ],
    ])
  })

  it('takes a pair as breaking when a test expects a WARN or ERR rule', () => {
    expect(pairs.map((p) => [p.expected, p.breaking])).toEqual([
      [[{ id: 'request-property-removed', level: 'WARN' }], true],
      [[{ id: 'new-optional-request-property', level: 'INFO' }], false],
      [[{ id: 'sunset-deleted', level: 'ERR' }], true],
    ])
  })

  it('counts only what a single-check test looks at', () => {
    const added = byTest('TestPropertyAddedParameterRemoved')
    expect(added?.breaking).toBe(false)
    expect(added?.unexamined.map((c) => c.rule)).toEqual(['parameter-removed'])
    expect(byTest('TestPropertyRemoved')?.breaking).toBe(true)
  })

  it('prints the count, each disagreement and the policy that explains it', () => {
    const tsx = createRequire(import.meta.url).resolve('tsx/cli')
    const run = spawnSync(
      process.execPath,
      [tsx, new URL('../src/spec-diff/oasdiff-agreement.ts', import.meta.url).pathname, checkout],
      { encoding: 'utf8' },
    )
    expect(run.status, run.stderr).toBe(0)
    const lines = run.stdout.split('\n')
    expect(lines[0]).toBe("spec:diff agrees with oasdiff's checker tests on 2 of 3 pairs")
    expect(lines).toContain('  explained by a policy of OASDIFF.md: 1')
    expect(lines).toContain('  policy: sunset-removed')
    const usage = spawnSync(process.execPath, [tsx, 'src/spec-diff/oasdiff-agreement.ts'], {
      cwd: new URL('../', import.meta.url).pathname,
      encoding: 'utf8',
    })
    expect([usage.status, usage.stderr]).toEqual([
      2,
      'spec-diff:agreement: usage: oasdiff-agreement.ts <oasdiff checkout>\n',
    ])
  })
})
