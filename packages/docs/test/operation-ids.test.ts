import { expect, it } from 'vitest'
import { listOperations } from '../src/openapi.js'
import { operationIdLine, withOperationIds } from '../src/operation-ids.js'
import { spec } from './helpers.js'

it('states each operationId first in its description, keeping the rest', () => {
  const [before, after] = [listOperations(spec), listOperations(withOperationIds(spec))]
  after.forEach(({ operation }, index) => {
    const original = String(before[index]?.operation.description).trim()
    expect(operation.description).toBe(
      `${operationIdLine(operation.operationId as string)}\n\n${original}`,
    )
  })
})
