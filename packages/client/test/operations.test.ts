import { openapiDocument } from '@petstore/types/spec'
import { expect, it } from 'vitest'
import { operationIds } from '../src/operations.js'

it('names every operation of the spec as the spec does', () => {
  const fromSpec: Record<string, string> = {}
  for (const [path, item] of Object.entries(openapiDocument.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, unknown>)) {
      const id = (operation as { operationId?: unknown } | undefined)?.operationId
      if (typeof id === 'string') fromSpec[`${method.toUpperCase()} ${path}`] = id
    }
  }
  expect(operationIds).toEqual(fromSpec)
})
