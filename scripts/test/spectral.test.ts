/**
 * The spec as Spectral reads it with `spectral:oas` and the OWASP API Security ruleset, through
 * the committed `spec/spectral.yaml`: it still finds what it should, and every rule the ruleset
 * turns off says why (that the spec has no finding is spec-lint.test.ts's). Runs
 * `spectralFindings`, the step `pnpm lint` and `pnpm dev` run; it needs no network.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  isScalar,
  type Pair,
  parse,
  parseDocument,
  type Scalar,
  stringify,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml'
import { CURRENT_SPEC } from '../src/spec-diff/paths.js'
import { HEADER_SET, HEADER_SETS } from '../src/spec-lint/header-sets.js'
import { SPECTRAL_RULESET } from '../src/spec-lint/lint.js'
import { plainYamlOptions } from '../src/spec-lint/plain-yaml.js'
import { spectralFindings } from '../src/spec-lint/spectral.js'

const root = new URL('../../', import.meta.url).pathname
const spec = join(root, CURRENT_SPEC)
const ruleset = join(root, SPECTRAL_RULESET)

const lint = (file: string) => spectralFindings(file, ruleset)

// Loading Spectral and bundling the ruleset take seconds on a loaded machine.
describe('Spectral (spectral:oas + OWASP)', { timeout: 60_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'petstore-spectral-'))
  afterAll(() => rmSync(work, { recursive: true, force: true }))

  it('still applies OWASP and our rate-limit rule to a spec that breaks them', async () => {
    const broken = parse(readFileSync(spec, 'utf8'), plainYamlOptions)
    const cursor = broken.components.parameters.Cursor.schema
    delete cursor.maxLength
    delete cursor.pattern
    // listPets' 200 loses the headers of its set that count the request.
    const listed = broken.paths['/pets'].get.responses['200']
    expect(listed[HEADER_SET]).toBe('limited')
    for (const header of Object.keys(broken[HEADER_SETS].limited.members)) {
      delete listed.headers[header]
    }
    listed[HEADER_SET] = 'common'
    const file = join(work, 'openapi.yaml')
    writeFileSync(file, stringify(broken))
    const codes = (await lint(file)).map((f) => `${f.code} ${f.path.join('.')}`)
    expect(codes).toContain('owasp:api4:2023-string-limit components.parameters.Cursor.schema')
    expect(codes).toContain('petstore-rate-limit-headers paths./pets.get.responses.200.headers')
  })

  it('explains every rule it turns off', () => {
    const document = parseDocument(readFileSync(ruleset, 'utf8'))
    const unexplained: string[] = []
    const rules = document.get('rules') as YAMLMap
    rules.items.forEach((pair, index) => {
      if (!isOff(pair)) return
      if (!explained(pair.key as Scalar, index, rules)) unexplained.push(String(pair.key))
    })
    const overrides = document.get('overrides') as YAMLSeq<YAMLMap>
    overrides.items.forEach((override, index) => {
      const off = (override.get('rules') as YAMLMap).items.filter(isOff)
      expect(off.length, `an override turns nothing off`).toBeGreaterThan(0)
      if (!explained(override, index, overrides)) unexplained.push(...off.map((p) => String(p.key)))
    })
    expect(unexplained).toEqual([])
  })
})

function isOff(pair: Pair): boolean {
  return isScalar(pair.value) && pair.value.value === 'off'
}

/** A comment right above the entry; the YAML parser gives the first entry's to its collection. */
function explained(
  node: { commentBefore?: string | null },
  index: number,
  collection: { commentBefore?: string | null },
): boolean {
  const comment = node.commentBefore ?? (index === 0 ? collection.commentBefore : undefined)
  return (comment ?? '').trim() !== ''
}
