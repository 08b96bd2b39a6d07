/**
 * The generators keep their word: for every request schema of the spec, what `valid*` makes the
 * spec accepts and what `invalid*` makes it refuses, so the fuzz's expectations are sound.
 */
import fc from 'fast-check'
import { expect, it } from 'vitest'
import { specOperations } from '../../src/spec/operations.js'
import {
  accepts,
  acceptsText,
  invalidObject,
  invalidText,
  validText,
  validValue,
} from './schema-arbitraries.js'

const options = { numRuns: 200, seed: 42 }

it.each(
  specOperations.flatMap((operation) =>
    operation.parameters.map(
      (parameter) => [`${operation.operationId} ${parameter.name}`, parameter] as const,
    ),
  ),
)('parameter %s: valid texts pass, invalid ones fail', (_, parameter) => {
  fc.assert(
    fc.property(validText(parameter.schema), (text) => acceptsText(parameter.schema, text)),
    options,
  )
  fc.assert(
    fc.property(invalidText(parameter.schema), (text) => !acceptsText(parameter.schema, text)),
    options,
  )
})

it.each(
  specOperations.flatMap((operation) =>
    operation.requestBody === undefined
      ? []
      : [[operation.operationId, operation.requestBody.schema] as const],
  ),
)('body of %s: valid values pass, broken ones fail', (_, schema) => {
  fc.assert(
    fc.property(validValue(schema), (value) => accepts(schema, value)),
    options,
  )
  fc.assert(
    fc.property(invalidObject(schema), ({ value }) => !accepts(schema, value)),
    options,
  )
})

it('refuses schema keywords it does not understand', () => {
  expect(() => validValue({ type: 'string', format: 'email', oneOf: [] })).toThrow('oneOf')
})
