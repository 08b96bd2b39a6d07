/**
 * The plain-YAML rule: the canonical spec is YAML 1.2 as every OpenAPI tool reads it, so it has
 * no anchor, alias, merge key or tag. Merge keys (`<<: *shared`) are a YAML 1.1 extension that
 * YAML 1.2 dropped: validators, mocks and generators that read YAML 1.2 take `<<` for a header
 * or a property and lose what it pulls in. Shared parts are OpenAPI `$ref`s instead, and shared
 * response headers a rule of their own (`header-sets.ts`).
 */
import { isAlias, isPair, isScalar, isSeq, LineCounter, parseDocument, visit } from 'yaml'
import type { Finding } from './finding.js'

/**
 * How the spec lint and the tests read the spec: YAML 1.2's core schema, no merge keys (a `<<`
 * stays a key), no duplicate key.
 */
export const plainYamlOptions = { schema: 'core', merge: false, uniqueKeys: true } as const

/** Every anchor, alias, merge key and tag of a YAML text, each with its line. */
export function plainYamlFindings(text: string): Finding[] {
  const lines = new LineCounter()
  const document = parseDocument(text, { ...plainYamlOptions, lineCounter: lines })
  const findings: Finding[] = []
  const report = (offset: number | undefined, path: string[], what: string, fix: string) => {
    const line = offset === undefined ? '' : ` (line ${lines.linePos(offset).line})`
    findings.push({
      code: 'petstore-plain-yaml',
      severity: 'error',
      path,
      message: `${what}${line}: ${fix}`,
    })
  }
  const shareByRef =
    'the spec shares parts with OpenAPI `$ref`s, not YAML: write the value out or `$ref` a component'
  visit(document, {
    Node(_, node, ancestors) {
      const path = keysOf([...ancestors, node])
      const start = node.range?.[0]
      if (isAlias(node)) report(start, path, `alias *${node.source}`, shareByRef)
      else if (node.anchor) {
        // A collection's range starts at its first entry, on the line after its anchor.
        const anchor = start === undefined ? -1 : text.lastIndexOf(`&${node.anchor}`, start)
        report(anchor < 0 ? start : anchor, path, `anchor &${node.anchor}`, shareByRef)
      }
      if (!isAlias(node) && node.tag) {
        const fix = 'the spec is plain YAML 1.2 data: write the value untagged'
        report(start, path, `tag ${node.tag}`, fix)
      }
    },
    Pair(_, pair, ancestors) {
      if (isScalar(pair.key) && pair.key.value === '<<') {
        const fix =
          'a YAML 1.1 merge key, which YAML 1.2 dropped and many OpenAPI tools read as a literal `<<` key: ' +
          'list the entries in full (shared response headers: `x-header-set`, see `x-header-sets`)'
        report(pair.key.range?.[0], keysOf([...ancestors, pair]), 'merge key <<', fix)
      }
    },
  })
  return findings
}

/** The keys from the document's root to the last of `trail` (the visitor's ancestors and node). */
function keysOf(trail: readonly unknown[]): string[] {
  const keys: string[] = []
  trail.forEach((ancestor, index) => {
    if (isPair(ancestor))
      keys.push(String(isScalar(ancestor.key) ? ancestor.key.value : ancestor.key))
    else if (isSeq(ancestor)) {
      const item = trail[index + 1]
      if (item !== undefined) keys.push(String(ancestor.items.indexOf(item as never)))
    }
  })
  return keys
}
