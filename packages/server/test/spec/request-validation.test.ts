import { expect, it } from 'vitest'
import { ApiProblem } from '../../src/errors.js'
import { createAjv } from '../../src/spec/ajv.js'
import { createValidatorCompiler } from '../../src/spec/request-validation.js'

const compile = createValidatorCompiler(createAjv({ useDefaults: true }))
const params = compile({
  schema: {
    type: 'object',
    // As JSON.parse reads the spec's 9223372036854775807: rounded up to 2^63.
    properties: { petId: { type: 'integer', format: 'int64', minimum: 1, maximum: 2 ** 63 } },
    required: ['petId'],
  },
  httpPart: 'params',
  method: 'GET',
  url: '/pets/:petId',
}) as (data: unknown) => { value?: unknown; error?: ApiProblem }

it('bounds int64 exactly, although JSON rounds 2^63-1 up', () => {
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
