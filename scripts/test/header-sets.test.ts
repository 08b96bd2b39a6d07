/**
 * The header-set rule of the spec lint (`pnpm lint`, `pnpm dev`): every response of the spec
 * lists the headers of the sets it names, and an edited copy that drops one, adds one of a set it
 * does not name, refers one elsewhere or names no set fails with a line naming the response and
 * the header. The sets, responses and headers used here are read from the spec.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import type { Json } from '../src/spec-diff/load.js'
import { formatFinding } from '../src/spec-lint/finding.js'
import { HEADER_SET, HEADER_SETS, headerSetFindings } from '../src/spec-lint/header-sets.js'
import { lintSpec } from '../src/spec-lint/lint.js'
import { at, ruleset, specCopy, specText } from './canonical-spec.js'

type Members = Record<string, { $ref: string }>
const members = (doc: Json, set: string) => at(doc, HEADER_SETS, set, 'members') as Members

/** The responses of operations that name exactly the header set `set`, in spec order. */
function responsesNaming(doc: Json, set: string) {
  const found = []
  for (const [path, item] of Object.entries(at(doc, 'paths'))) {
    for (const [method, operation] of Object.entries(item as Json)) {
      const responses = (operation as Json).responses as Record<string, Json> | undefined
      for (const [status, response] of Object.entries(responses ?? {})) {
        if (response[HEADER_SET] !== set) continue
        const name = `${method.toUpperCase()} ${path} ${status} (${(operation as Json).operationId})`
        const where = ['paths', path, method, 'responses', status]
        found.push({ response, name, where })
      }
    }
  }
  expect(found.length, `no operation's response names only the header set ${set}`).toBeGreaterThan(
    1,
  )
  return found
}

describe('the header-set rule', { timeout: 60_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'petstore-header-sets-'))
  afterAll(() => rmSync(work, { recursive: true, force: true }))

  it('finds every response of the spec carrying the headers of the sets it names', () => {
    const doc = specCopy()
    const sets = Object.keys(at(doc, HEADER_SETS))
    expect(sets.length, `spec/openapi.yaml declares no ${HEADER_SETS}`).toBeGreaterThan(0)
    const named = specText.match(new RegExp(`^ +${HEADER_SET}: `, 'gm')) ?? []
    expect(named.length, `no response of spec/openapi.yaml names a header set`).toBeGreaterThan(10)
    expect(headerSetFindings(doc).map(formatFinding)).toEqual([])
  })

  it('fails `pnpm lint` naming the response and the header it misses or has in excess', async () => {
    const doc = specCopy()
    const [limited] = responsesNaming(doc, 'limited')
    const [missing, ref] = Object.entries(members(doc, 'common'))[0] ?? []
    expect(missing, 'set common has no members').toBeDefined()
    delete at(limited?.response, 'headers')[missing as string]
    const [extra, extraRef] = Object.entries(members(doc, 'deprecated'))[0] ?? []
    expect(extra, 'set deprecated has no members').toBeDefined()
    at(limited?.response, 'headers')[extra as string] = structuredClone(extraRef)
    const file = join(work, 'openapi.yaml')
    writeFileSync(file, stringify(doc))
    const where = [...(limited?.where ?? []), 'headers']
    const findings = await lintSpec({ spec: file, ruleset })
    // Spectral's rules may flag the missing header too; this rule names its set.
    const ours = findings.filter((finding) => finding.code === 'petstore-header-set')
    expect(ours.map(formatFinding)).toEqual([
      `error petstore-header-set at ${[...where, missing].join('.')}: ${limited?.name}: missing header ${missing} of set common: add \`${missing}: { $ref: '${ref?.$ref}' }\` to its headers`,
      `error petstore-header-set at ${[...where, extra].join('.')}: ${limited?.name}: extra header ${extra}, of set deprecated, which ${HEADER_SET} does not name: remove the header, or name its set`,
    ])
  })

  it('names a header referred elsewhere than its set says, in a shared response too', () => {
    const doc = specCopy()
    const responses = at(doc, 'components', 'responses') as Record<string, Json>
    const [name, failure] =
      Object.entries(responses).find(([, response]) => response[HEADER_SET] === 'failed') ?? []
    expect(name, 'no shared response names the header set failed').toBeDefined()
    const [header, own] =
      Object.entries(members(doc, 'failed')).find(
        ([header, ref]) => members(doc, 'limited')[header]?.$ref !== ref.$ref,
      ) ?? []
    expect(header, 'sets failed and limited give no header differently').toBeDefined()
    const wrong = members(doc, 'limited')[header as string]
    at(failure, 'headers')[header as string] = wrong
    expect(headerSetFindings(doc).map(formatFinding)).toEqual([
      `error petstore-header-set at components.responses.${name}.headers.${header}: response ${name}: header ${header} is ${wrong?.$ref}, but set failed gives it as ${own?.$ref}`,
    ])
  })

  it('asks a response that names no set, or an unknown one, to name its sets', () => {
    const doc = specCopy()
    const [unnamed, unknown] = responsesNaming(doc, 'limited')
    delete unnamed?.response[HEADER_SET]
    if (unknown) unknown.response[HEADER_SET] = 'everything'
    const sets = Object.keys(at(doc, HEADER_SETS)).join(', ')
    expect(headerSetFindings(doc).map(formatFinding)).toEqual([
      `error petstore-header-set at ${unnamed?.where.join('.')}: ${unnamed?.name} names no header set: add \`${HEADER_SET}: <set>\` (or a list of sets) naming the sets of ${HEADER_SETS} its headers come from (${sets})`,
      `error petstore-header-set at ${unknown?.where.join('.')}.${HEADER_SET}: ${unknown?.name} names header set everything, which ${HEADER_SETS} does not declare (${sets})`,
    ])
  })

  it("keeps a header's variants (one name, two sets) to one syntax", () => {
    const doc = specCopy()
    const [header, variant] =
      Object.entries(members(doc, 'failed')).find(
        ([header, ref]) => members(doc, 'limited')[header]?.$ref !== ref.$ref,
      ) ?? []
    const base = members(doc, 'limited')[header as string]?.$ref as string
    expect(variant, 'sets failed and limited give no header differently').toBeDefined()
    const component = String(variant?.$ref).split('/').at(-1) as string
    const headers = at(doc, 'components', 'headers')
    ;(headers[component] as Json).example = 'drifted'
    expect(headerSetFindings(doc).map(formatFinding)).toEqual([
      `error petstore-header-set at components.headers.${component}: ${variant?.$ref} differs from ${base} in example: set failed and set limited both give it as ${header}, one header on the wire; only description and required may differ`,
    ])
  })
})
