/**
 * The canonical spec is plain YAML 1.2: a strict reader (core schema, merge keys off, duplicate
 * keys refused) reads it whole, as Redocly's bundle does, and the spec lint's plain-YAML rule
 * names every anchor, alias, merge key and tag with its line.
 */
import { describe, expect, it } from 'vitest'
import { parse, parseDocument } from 'yaml'
import { redoclyBundle } from '../src/generate-types.js'
import { isObject, type Json } from '../src/spec-diff/load.js'
import { formatFinding } from '../src/spec-lint/finding.js'
import { plainYamlFindings, plainYamlOptions } from '../src/spec-lint/plain-yaml.js'
import { spec, specText as text } from './canonical-spec.js'

/** Every key of a parsed document, as `path.to.key`. */
function keyPaths(node: unknown, path = ''): string[] {
  if (Array.isArray(node)) return node.flatMap((item, index) => keyPaths(item, `${path}.${index}`))
  if (!isObject(node)) return []
  return Object.entries(node).flatMap(([key, value]) => [
    `${path}.${key}`,
    ...keyPaths(value, `${path}.${key}`),
  ])
}

describe('the canonical spec as plain YAML 1.2', { timeout: 60_000 }, () => {
  it('reads with the core schema, no merge keys and no duplicate key, without a warning', () => {
    const document = parseDocument(text, plainYamlOptions)
    expect(document.errors.map(String)).toEqual([])
    expect(document.warnings.map(String)).toEqual([])
    const keys = keyPaths(document.toJS())
    expect(keys.length).toBeGreaterThan(100)
    expect(keys.filter((key) => key.endsWith('.<<'))).toEqual([])
    expect(plainYamlFindings(text).map(formatFinding)).toEqual([])
  })

  it("reads as Redocly's bundle reads it, which only moves the root's extensions last", () => {
    const strict = parse(text, plainYamlOptions) as Json
    const bundled = redoclyBundle(spec)
    expect(strict).toStrictEqual(bundled)
    // Key order too, below the root: the bundle keeps every map as the file writes it.
    for (const [key, value] of Object.entries(strict)) {
      expect(JSON.stringify(bundled[key]), `${key} in Redocly's bundle`).toBe(JSON.stringify(value))
    }
    const extensions = Object.keys(strict).filter((key) => key.startsWith('x-'))
    expect(extensions.length).toBeGreaterThan(0)
    expect(Object.keys(bundled)).toEqual([
      ...Object.keys(strict).filter((key) => !key.startsWith('x-')),
      ...extensions,
    ])
  })

  it('names each anchor, alias, merge key and tag with its place and line', () => {
    const shared = [
      'x-headers: &shared',
      '  X-Request-Id: {}',
      'paths:',
      '  /a:',
      '    get:',
      '      responses:',
      "        '200':",
      '          headers:',
      '            <<: *shared',
      '      tags:',
      '        - !!str a',
      '        - *shared',
      '',
    ].join('\n')
    expect(plainYamlFindings(shared).map(formatFinding)).toEqual([
      'error petstore-plain-yaml at x-headers: anchor &shared (line 1): the spec shares parts with OpenAPI `$ref`s, not YAML: write the value out or `$ref` a component',
      'error petstore-plain-yaml at paths./a.get.responses.200.headers.<<: merge key << (line 9): a YAML 1.1 merge key, which YAML 1.2 dropped and many OpenAPI tools read as a literal `<<` key: list the entries in full (shared response headers: `x-header-set`, see `x-header-sets`)',
      'error petstore-plain-yaml at paths./a.get.responses.200.headers.<<: alias *shared (line 9): the spec shares parts with OpenAPI `$ref`s, not YAML: write the value out or `$ref` a component',
      'error petstore-plain-yaml at paths./a.get.tags.0: tag tag:yaml.org,2002:str (line 11): the spec is plain YAML 1.2 data: write the value untagged',
      'error petstore-plain-yaml at paths./a.get.tags.1: alias *shared (line 12): the spec shares parts with OpenAPI `$ref`s, not YAML: write the value out or `$ref` a component',
    ])
  })
})
