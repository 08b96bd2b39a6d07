import { describe, expect, it } from 'vitest'
import { formatBody, InputError, operationForHash, planRequest } from '../../src/browser/request.js'
import type { TryItOperation } from '../../src/browser/types.js'

const getPet: TryItOperation = {
  operationId: 'getPet',
  summary: 'Get a pet',
  method: 'get',
  path: '/pets/{petId}',
  deprecated: true,
  parameters: [
    { name: 'petId', in: 'path', required: true },
    { name: 'verbose', in: 'query', required: false },
    { name: 'X-Request-Id', in: 'header', required: false },
  ],
}
const createPet: TryItOperation = {
  operationId: 'createPet',
  summary: 'Add a pet',
  method: 'post',
  path: '/pets',
  deprecated: false,
  parameters: [],
  body: '{}',
}

describe('planRequest', () => {
  it('fills the path, appends set query values, sends headers and the bearer key', () => {
    const planned = planRequest(getPet, {
      baseUrl: 'http://127.0.0.1:3000/v1/',
      apiKey: ' psk_1 ',
      parameters: { petId: 'a/b', verbose: '', 'X-Request-Id': 'r1' },
    })
    expect(planned).toEqual({
      url: 'http://127.0.0.1:3000/v1/pets/a%2Fb',
      method: 'GET',
      headers: { Accept: 'application/json', Authorization: 'Bearer psk_1', 'X-Request-Id': 'r1' },
    })
  })

  it('sends no Authorization header without a key, to show the 401', () => {
    const planned = planRequest(getPet, { baseUrl: '/v1', apiKey: '', parameters: { petId: '1' } })
    expect(planned.headers.Authorization).toBeUndefined()
  })

  it('refuses a missing required parameter or a body that is not JSON', () => {
    expect(() => planRequest(getPet, { baseUrl: '', apiKey: '', parameters: {} })).toThrow(
      new InputError('petId is required'),
    )
    expect(() =>
      planRequest(createPet, { baseUrl: '', apiKey: '', parameters: {}, body: '{' }),
    ).toThrow(InputError)
  })

  it('sends a JSON body as application/json', () => {
    const planned = planRequest(createPet, {
      baseUrl: 'http://h/v1',
      apiKey: 'k',
      parameters: {},
      body: '{"name":"Rex"}',
    })
    expect(planned).toMatchObject({
      method: 'POST',
      body: '{"name":"Rex"}',
      headers: { 'Content-Type': 'application/json' },
    })
  })
})

describe('operationForHash', () => {
  it('maps Redoc 3 routes to operations and ignores the rest', () => {
    expect(operationForHash([getPet, createPet], '#/pets/createpet')).toBe(createPet)
    expect(operationForHash([getPet, createPet], '#/pets/getpet#response')).toBe(getPet)
    expect(operationForHash([getPet, createPet], '#/section/errors')).toBeUndefined()
  })
})

describe('formatBody', () => {
  it('pretty-prints JSON and leaves other text alone', () => {
    expect(formatBody('{"a":1}')).toBe('{\n  "a": 1\n}')
    expect(formatBody('not found')).toBe('not found')
  })
})
