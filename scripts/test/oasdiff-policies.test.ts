/**
 * spec:diff's policies where oasdiff's verdict differs or might be expected
 * (`fixtures/oasdiff-policies.yaml`): each fixture reports exactly what it says, each policy
 * gives its reason, and the oasdiff tests a policy explains are named once.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { diffSpecs } from '../src/spec-diff/diff.js'
import { resolveRefs } from '../src/spec-diff/load.js'
import { oasdiffIdsOf } from '../src/spec-diff/oasdiff-ids.js'
import { POLICY_FIXTURES, type PolicyFixture } from '../src/spec-diff/parity.js'
import { RULES } from '../src/spec-diff/rules.js'
import { parityDocument } from './parity-fixture.js'

const policies: Record<string, PolicyFixture> = parse(readFileSync(POLICY_FIXTURES, 'utf8'))
const now = new Date('2026-06-01T00:00:00Z')
const reported = ({ base, head }: PolicyFixture) =>
  diffSpecs(resolveRefs(parityDocument(base)), resolveRefs(parityDocument(head)), { now })

describe('oasdiff policies', () => {
  it.each(Object.entries(policies))('%s', (_, policy) => {
    expect(policy.policy && policy.why && policy.oasdiff).toBeTruthy()
    const changes = reported(policy)
    expect(changes.map((c) => `${c.kind} ${c.rule}`)).toEqual(policy.expect)
    for (const change of changes) {
      expect(Object.keys(RULES)).toContain(change.rule)
      expect(oasdiffIdsOf(change).length).toBeLessThanOrEqual(1)
    }
  })

  it('explains each oasdiff test by one policy at most', () => {
    const tests = Object.values(policies).flatMap((p) => p.tests)
    expect(tests.length).toBeGreaterThan(0)
    expect(new Set(tests).size).toBe(tests.length)
  })

  it('says why a new error code or a CORS header value needs no major', () => {
    const [code] = reported(policies['error-codes-are-open'] as PolicyFixture)
    expect(code?.allowedBy).toMatch(/^an error response: /)
    const [cors] = reported(policies['cors-header-values'] as PolicyFixture)
    expect(cors?.allowedBy).toMatch(/^a CORS header: /)
  })

  it('names the branch an edit is in, and that edit only', () => {
    const changes = reported(policies['composition-edit-inside-a-branch'] as PolicyFixture)
    expect(changes.map((c) => [c.location, oasdiffIdsOf(c)])).toEqual([
      [
        'POST /pets/{petId} request body application/json: anyOf[Dog].name',
        ['request-property-max-length-decreased'],
      ],
    ])
  })
})
