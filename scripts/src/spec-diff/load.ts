import { readFileSync } from 'node:fs'
import { dereference } from '@petstore/types/openapi/source'
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
 * How the `yaml` package reads a spec given to spec:diff: one written elsewhere may share headers
 * with YAML merge keys (`<<: *limited`), a YAML 1.1 key that a YAML 1.2 reader resolves only when
 * asked. This repository's spec has none (its lint refuses them: spec-lint/plain-yaml.ts).
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

/** The `$ref` each object of a resolved spec was inlined from (`resolveRefs`). */
const refs = new WeakMap<object, string>()

/**
 * The name of the component a resolved schema was inlined from (`Dog` for
 * `#/components/schemas/Dog`), or `undefined` for an inline schema.
 */
export function componentName(node: unknown): string | undefined {
  const ref = typeof node === 'object' && node !== null ? refs.get(node) : undefined
  return ref?.slice(ref.lastIndexOf('/') + 1)
}

/** Gives `copy`, a schema made from `original`, the component name `original` has. */
export function keepComponentName<T extends object>(copy: T, original: unknown): T {
  const ref = typeof original === 'object' && original !== null ? refs.get(original) : undefined
  if (ref !== undefined) refs.set(copy, ref)
  return copy
}

/**
 * Inlines `#/...` references (`dereference`) so that a schema moved into `components` (or back)
 * compares equal. Siblings of a `$ref` (OpenAPI 3.1 allows `default`, `description`, ...)
 * override the target. A recursive schema keeps its inner `{ $ref }`, which then compares by name.
 */
export function resolveRefs(doc: Json, file = 'spec'): Json {
  try {
    return dereference(doc, doc, { cycles: 'keep', refs })
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`)
  }
}
