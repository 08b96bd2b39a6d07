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
 * Inlines `#/...` references (`dereference`) so that a schema moved into `components` (or back)
 * compares equal. Siblings of a `$ref` (OpenAPI 3.1 allows `default`, `description`, ...)
 * override the target. A recursive schema keeps its inner `{ $ref }`, which then compares by name.
 */
export function resolveRefs(doc: Json, file = 'spec'): Json {
  try {
    return dereference(doc, doc, { cycles: 'keep' })
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`)
  }
}
