import { readFileSync } from 'node:fs'
import { resolvePointer } from '@petstore/types/openapi/source'
import { parse } from 'yaml'

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
    raw = parse(readFileSync(file, 'utf8'), specYamlOptions)
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
  const resolve = (node: unknown, stack: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => resolve(item, stack))
    if (!isObject(node)) return node
    const ref = node.$ref
    if (typeof ref === 'string') {
      if (!ref.startsWith('#/')) throw new Error(`${file}: external $ref ${ref} is not supported`)
      if (stack.includes(ref)) return { $ref: ref }
      const { $ref: _, ...siblings } = node
      const target = pointer(doc, ref, file)
      return resolve(isObject(target) ? { ...target, ...siblings } : target, [...stack, ref])
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, resolve(v, stack)]))
  }
  return resolve(doc, []) as Json
}

/**
 * The node a local `$ref` (`#/…`) points at (`resolvePointer`: `~1` and `~0` unescaped); throws,
 * naming the file, when it points at nothing.
 */
export function pointer(doc: Json, ref: string, file: string): unknown {
  try {
    return resolvePointer(doc, ref)
  } catch {
    throw new Error(`${file}: $ref ${ref} points at nothing`)
  }
}
