import { readFileSync } from 'node:fs'
import { parseSpecText } from './spec-yaml.js'

/** A parsed OpenAPI document; rules read it structurally, so fields stay loosely typed. */
export type Json = Record<string, unknown>

export interface LoadedSpec {
  file: string
  version: string
  /** The document with every internal `$ref` replaced by its target. */
  doc: Json
}

/**
 * How the `yaml` package reads a spec: responses take their shared headers with YAML merge keys
 * (`<<: *limited`), a YAML 1.1 key that a YAML 1.2 reader resolves only when asked.
 */
export const specYamlOptions = { merge: true } as const

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Reads a YAML or JSON OpenAPI document and resolves its internal `$ref`s. */
export function loadSpec(file: string): LoadedSpec {
  let raw: unknown
  try {
    raw = parseSpecText(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new Error(`${file}: cannot read the spec: ${(error as Error).message}`)
  }
  if (!isObject(raw) || typeof raw.openapi !== 'string' || !isObject(raw.paths)) {
    throw new Error(`${file}: not an OpenAPI document (no \`openapi\` version or \`paths\`)`)
  }
  const info = isObject(raw.info) ? raw.info : {}
  const version = typeof info.version === 'string' ? info.version : ''
  return { file, version, doc: resolveRefs(raw, file) }
}

/**
 * Inlines `#/...` references so that a schema moved into `components` (or back) compares equal.
 * Siblings of a `$ref` (OpenAPI 3.1 allows `default`, `description`, ...) override the target.
 * A recursive schema keeps its inner `{ $ref }`, which then compares by name.
 */
export function resolveRefs(doc: Json, file = 'spec'): Json {
  // A `$ref` without siblings whose target holds no cycle resolves the same wherever it is used:
  // resolved once and shared, so that a large spec is not inlined again at every use.
  const shared = new Map<string, unknown>()
  let cycles = 0
  const resolve = (node: unknown, stack: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => resolve(item, stack))
    if (!isObject(node)) return node
    const ref = node.$ref
    if (typeof ref === 'string') {
      if (!ref.startsWith('#/')) throw new Error(`${file}: external $ref ${ref} is not supported`)
      if (stack.includes(ref)) {
        cycles++
        return { $ref: ref }
      }
      const { $ref: _, ...siblings } = node
      const plain = Object.keys(siblings).length === 0
      if (plain && shared.has(ref)) return shared.get(ref)
      const before = cycles
      const target = pointer(doc, ref, file)
      const resolved = resolve(isObject(target) ? { ...target, ...siblings } : target, [
        ...stack,
        ref,
      ])
      if (plain && cycles === before) shared.set(ref, resolved)
      return resolved
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, resolve(v, stack)]))
  }
  return resolve(doc, []) as Json
}

/**
 * The node a local `$ref` (`#/…`) points at; throws when it points at nothing.
 * @see https://www.rfc-editor.org/rfc/rfc6901 (JSON Pointer, `~1` and `~0` escapes)
 */
export function pointer(doc: Json, ref: string, file: string): unknown {
  let node: unknown = doc
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~')
    if (!isObject(node) && !Array.isArray(node)) break
    node = (node as Record<string, unknown>)[key]
  }
  if (node === undefined) throw new Error(`${file}: $ref ${ref} points at nothing`)
  return node
}
