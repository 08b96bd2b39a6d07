/**
 * The line of the spec a change is about, for annotations on a pull request: the deepest node of
 * its location that the YAML file has (an operation, parameter, media type, response, header,
 * schema property), following local `$ref`s into `components`, with the `yaml` parser's source
 * positions.
 */
import { isMap, isScalar, isSeq, LineCounter, type Node, type Pair, parseDocument } from 'yaml'
import { specYamlOptions } from './load.js'

const blank = (path: string) => path.replaceAll(/\{[^}]*\}/g, '{}')

export function sourceLines(text: string): (location: string) => number {
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { ...specYamlOptions, lineCounter })
  const lineOf = (pair: Pair | undefined) => {
    const offset = (pair?.key as Node | undefined)?.range?.[0]
    return offset === undefined ? 1 : lineCounter.linePos(offset).line
  }
  const entry = (node: unknown, key: string): Pair | undefined => {
    const target = deref(node)
    if (!isMap(target)) return undefined
    return target.items.find((p) => isScalar(p.key) && String(p.key.value) === key)
  }
  /** A `{ $ref: '#/...' }` node's target, else the node. */
  const deref = (node: unknown, seen = 0): unknown => {
    if (!isMap(node) || seen > 20) return node
    const ref = node.get('$ref')
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return node
    const keys = ref
      .slice(2)
      .split('/')
      .map((k) => decodeURIComponent(k).replaceAll('~1', '/').replaceAll('~0', '~'))
    return deref(doc.getIn(keys, true), seen + 1)
  }

  return (location) => {
    const [where = '', inner] = location.split(': ')
    const [method = '', path = '', ...rest] = where.split(' ')
    // Webhooks are named `webhook:<name>` (`model.ts`) and live under `webhooks`.
    const webhook = path.startsWith('webhook:')
    const paths = entry(doc.contents, webhook ? 'webhooks' : 'paths')
    if (paths === undefined) return 1
    const key = webhook ? path.slice('webhook:'.length) : path
    const item = isMap(paths.value)
      ? paths.value.items.find((p) => isScalar(p.key) && blank(String(p.key.value)) === blank(key))
      : undefined
    let found = item === undefined ? paths : (entry(item.value, method.toLowerCase()) ?? item)
    const step = (key: string) => {
      const next = entry(found.value, key)
      if (next !== undefined) found = next
      return next !== undefined
    }
    /** Into the branch `label` of a composition: its position, or the component it names. */
    const stepBranch = (keyword: string, label: string) => {
      const list = entry(found.value, keyword)
      if (list === undefined || !isSeq(list.value)) return false
      const items = list.value.items
      const item = /^\d+$/.test(label)
        ? items[Number(label)]
        : items.find((i) => isMap(i) && String(i.get('$ref')).endsWith(`/${label}`))
      if (!isMap(item)) return false
      // Point at the branch's first line; later steps read its keys (through its `$ref`).
      found = { key: item.items[0]?.key, value: item } as Pair
      return true
    }
    const [kind, ...tail] = rest
    if (kind === 'request' && step('requestBody') && tail[1] !== undefined) {
      step('content') && step(tail[1])
    } else if (kind === 'response' && tail[0] !== undefined && step('responses') && step(tail[0])) {
      if (tail[1] === 'header') step('headers') && step(tail[2] ?? '')
      else if (tail[1] !== undefined) step('content') && step(tail[1])
    } else if (kind === 'security') {
      step('security')
    } else if (tail[0] === 'parameter') {
      const list = deref(entry(found.value, 'parameters')?.value)
      const parameter = isSeq(list)
        ? list.items.map((p) => deref(p)).find((p) => isMap(p) && p.get('name') === tail[1])
        : undefined
      if (isMap(parameter)) {
        // The parameter's first line, or its schema when the change is inside it.
        const schema = inner === undefined ? undefined : entry(parameter, 'schema')
        found = schema ?? parameter.items[0] ?? found
      }
    }
    if (
      inner !== undefined &&
      (kind === 'request' || kind === 'response' || tail[0] === 'parameter')
    ) {
      if (kind !== undefined && tail[0] !== 'parameter') step('schema')
      for (const segment of inner.split(' -> ')[0]?.split('.') ?? []) {
        let name = segment
        while (name.startsWith('[]')) {
          step('items')
          name = name.slice(2)
        }
        const branch = /^(allOf|anyOf|oneOf)\[(.+)\]$/.exec(name)
        if (branch) {
          if (!stepBranch(branch[1] as string, branch[2] as string)) break
        } else if (name === '{*}') step('additionalProperties')
        else if (name !== '' && !(step('properties') && step(name))) break
      }
    }
    return lineOf(found)
  }
}
