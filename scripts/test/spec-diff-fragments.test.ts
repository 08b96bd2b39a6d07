/**
 * spec:diff cases beyond oasdiff's ERR rules (`fixtures/spec-diff-fragments.yaml`): edits that
 * must not be reported as breaking, stability levels, the sunset grace of parameters and
 * properties, security requirements, readOnly/writeOnly and additionalProperties schemas.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { diffSpecs } from '../src/spec-diff/diff.js'
import { resolveRefs } from '../src/spec-diff/load.js'
import { RULES } from '../src/spec-diff/rules.js'
import { type ParityFixture, parityDocument } from './parity-fixture.js'

const fixtures: Record<string, ParityFixture> = parse(
  readFileSync(new URL('./fixtures/spec-diff-fragments.yaml', import.meta.url), 'utf8'),
)
const now = new Date('2026-06-01T00:00:00Z')
const reported = ({ base, head }: ParityFixture) =>
  diffSpecs(resolveRefs(parityDocument(base)), resolveRefs(parityDocument(head)), { now })

describe('spec:diff fragments', () => {
  it.each(Object.entries(fixtures))('%s', (_, fixture) => {
    const changes = reported(fixture)
    expect(changes.map((c) => `${c.kind} ${c.rule}`)).toEqual(fixture.expect)
    for (const change of changes) expect(Object.keys(RULES)).toContain(change.rule)
  })

  it('says why a draft or alpha operation’s breaking change needs no major', () => {
    const [draft] = reported(fixtures['draft-operation-breaking-change'] as ParityFixture)
    expect(draft?.allowedBy).toBe('x-stability-level: draft')
    const [alpha] = reported(fixtures['alpha-operation-removed'] as ParityFixture)
    expect(alpha?.allowedBy).toBe('x-stability-level: alpha')
    const [beta] = reported(fixtures['beta-operation-breaking-change'] as ParityFixture)
    expect(beta?.allowedBy).toBeUndefined()
  })

  it('names the schemes and scopes a client of the baseline now lacks', () => {
    const [scope] = reported(fixtures['security-scope-required'] as ParityFixture)
    expect(scope?.message).toBe(
      'clients that authenticate with petstore_auth [read] are now refused: the operation asks for petstore_auth [read, write]',
    )
  })
})
