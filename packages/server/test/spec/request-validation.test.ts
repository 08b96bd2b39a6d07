import { describe, expect, it } from 'vitest'
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

/** A validator of one part, for parameters with these schemas (none required). */
function part(httpPart: 'querystring' | 'headers', properties: Record<string, unknown>) {
  return compile({
    schema: { type: 'object', properties, required: [] },
    httpPart,
    method: 'GET',
    url: '/things',
  }) as (data: unknown) => { value?: Record<string, unknown>; error?: ApiProblem }
}

describe('query parameters of every scalar type, read strictly', () => {
  const query = part('querystring', {
    vaccinated: { type: 'boolean' },
    weight: { type: 'number', minimum: 0 },
    size: { type: 'integer', enum: [1, 2, 3] },
    level: { type: 'number', enum: [0.5, 1.5] },
    kind: { type: 'string', enum: ['cat', 'dog'] },
    tag: { type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: 3 },
  })

  it('reads each as its type', () => {
    expect(
      query({
        vaccinated: 'false',
        weight: '12.5',
        size: '2',
        level: '1.5',
        kind: 'cat',
        tag: ['1', '7'],
      }).value,
    ).toEqual({ vaccinated: false, weight: 12.5, size: 2, level: 1.5, kind: 'cat', tag: [1, 7] })
    expect(query({ vaccinated: 'true', tag: '4' }).value).toEqual({ vaccinated: true, tag: [4] })
    expect(query({ weight: '-0.5e1' }).error?.message).toBe(
      'query parameter weight must be a number of at least 0',
    )
  })

  it.each([
    ['vaccinated', '1', 'query parameter vaccinated must be true or false'],
    ['vaccinated', 'TRUE', 'query parameter vaccinated must be true or false'],
    ['vaccinated', '', 'query parameter vaccinated must be true or false'],
    ['weight', '1.', 'query parameter weight must be a number'],
    ['weight', '0x10', 'query parameter weight must be a number'],
    ['weight', 'NaN', 'query parameter weight must be a number'],
    ['size', '4', 'query parameter size must be one of 1, 2, 3'],
    ['size', '02', 'query parameter size must be an integer'],
    ['level', '2', 'query parameter level must be one of 0.5, 1.5'],
    ['kind', 'bird', 'query parameter kind must be one of cat, dog'],
    ['tag', ['1', 'x'], 'each query parameter tag must be a positive integer'],
    ['tag', ['1', '2', '3', '4'], 'query parameter tag must NOT have more than 3 items'],
  ])('refuses %s=%j: %s', (name, raw, message) => {
    expect(query({ [name]: raw }).error?.message).toBe(message)
  })

  it('refuses a scalar given twice, and takes an array parameter repeated', () => {
    expect(query({ kind: ['cat', 'dog'] }).error?.message).toBe(
      'query parameter kind must be given at most once',
    )
    expect(query({ tag: ['1', '2', '3'] }).value).toEqual({ tag: [1, 2, 3] })
  })
})

describe('enums without a type, read as the type of their members', () => {
  const query = part('querystring', {
    size: { enum: [1, 2, 3] },
    level: { enum: [0.5, 1.5] },
    flag: { enum: [true] },
    kind: { enum: ['cat', 'dog'] },
    sizes: { type: 'array', items: { enum: [1, 2] } },
  })

  it('takes each member as the type it has', () => {
    expect(
      query({ size: '2', level: '0.5', flag: 'true', kind: 'dog', sizes: ['1', '2'] }).value,
    ).toEqual({ size: 2, level: 0.5, flag: true, kind: 'dog', sizes: [1, 2] })
  })

  it.each([
    ['size', '2.0', 'query parameter size must be an integer'],
    ['size', '4', 'query parameter size must be one of 1, 2, 3'],
    ['level', '.5', 'query parameter level must be a number'],
    ['flag', 'false', 'query parameter flag must be one of true'],
    ['sizes', ['1', '02'], 'each query parameter sizes must be an integer'],
  ])('refuses %s=%j: %s', (name, raw, message) => {
    expect(query({ [name]: raw }).error?.message).toBe(message)
  })
})

describe('header parameters', () => {
  const headers = part('headers', { 'X-Page-Size': { type: 'integer', minimum: 1, maximum: 9 } })

  it('reads a declared header by its lower-case name and keeps every other header', () => {
    expect(headers({ 'x-page-size': '3', host: 'x' }).value).toEqual({
      'x-page-size': 3,
      host: 'x',
    })
    expect(headers({ 'x-page-size': '30' }).error?.message).toBe(
      'header X-Page-Size must be an integer from 1 to 9',
    )
  })
})
