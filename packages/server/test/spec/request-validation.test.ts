import { expect, it } from 'vitest'
import { ApiProblem } from '../../src/errors.js'
import { createAjv } from '../../src/spec/ajv.js'
import { createValidatorCompiler } from '../../src/spec/request-validation.js'

const compile = createValidatorCompiler(createAjv({ useDefaults: true }))
const params = compile({
  schema: {
    type: 'object',
    // As the spec declares petId: the int64 format bounds it, as no JSON number holds 2^63-1.
    properties: { petId: { type: 'integer', format: 'int64', minimum: 1 } },
    required: ['petId'],
  },
  httpPart: 'params',
  method: 'GET',
  url: '/pets/:petId',
}) as (data: unknown) => { value?: unknown; error?: ApiProblem }

it('refuses a bound that JSON rounds, such as 2^63-1 read as 2^63', () => {
  const rounded = { type: 'integer', format: 'int64', minimum: 1, maximum: 2 ** 63 }
  expect(() =>
    compile({
      schema: { type: 'object', properties: { petId: rounded }, required: ['petId'] },
      httpPart: 'params',
      method: 'GET',
      url: '/pets/:petId',
    }),
  ).toThrow('not exact in JSON')
})

it('bounds int64 exactly by its format', () => {
  expect(params({ petId: '9223372036854775807' }).value).toEqual({ petId: 2 ** 63 })
  expect(params({ petId: '9223372036854775808' }).error?.message).toBe(
    'path parameter petId must be a positive integer of at most 9223372036854775807',
  )
})

it('names the parameter and refuses before coercing', () => {
  for (const raw of ['010', '+5', '5.0', '1e1', '0x10', '', ' 5']) {
    const result = params({ petId: raw })
    expect(result.error).toBeInstanceOf(ApiProblem)
    expect(result.error?.message).toBe('path parameter petId must be a positive integer')
  }
  expect(params({}).error?.message).toBe('path parameter petId is required')
})
