/**
 * The paths of the spec as a client meets them, derived from the spec so that tests follow a
 * spec edit instead of repeating it: each path's example address and the `Allow` it is answered
 * with (the path's methods, HEAD wherever GET, OPTIONS everywhere: the spec's `Allow` header).
 */

import { answeredMethods, operationsOf } from '@petstore/types/openapi'
import { openapiDocument } from '@petstore/types/spec'

export interface SpecPath {
  /** As the spec writes it, e.g. `/pets/{petId}`. */
  path: string
  /** An address under /v1 that matches it, parameters filled in, e.g. `/pets/7`. */
  example: string
  /** The methods `Allow` lists, sorted (its order is not part of the contract). */
  allow: string[]
}

/** An `Allow` (or `Access-Control-Allow-Methods`) header's methods, sorted. */
export function allowed(header: string | null): string[] {
  return (header ?? '').split(', ').sort()
}

export function specPaths(): SpecPath[] {
  const byPath = new Map<string, Set<string>>()
  for (const { path, method } of operationsOf(openapiDocument)) {
    const methods = byPath.get(path) ?? new Set<string>()
    if (method !== 'options') for (const name of answeredMethods(method)) methods.add(name)
    byPath.set(path, methods)
  }
  return [...byPath].map(([path, methods]) => ({
    path,
    example: path.replace(/\{[^}]+\}/g, '7'),
    allow: [...methods, 'OPTIONS'].sort(),
  }))
}

/** Methods a client may try on a path, for 405 tests. */
export const probedMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
