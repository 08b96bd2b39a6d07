import { describe, expect, it } from 'vitest'
import {
  formatBody,
  InputError,
  operationForHash,
  planRequest,
  rememberEtag,
  resourceOf,
} from '../../src/browser/request.js'
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
  bodyMediaType: 'application/json',
  bodyRequired: true,
  body: '{}',
}
const updatePet: TryItOperation = {
  operationId: 'updatePet',
  summary: 'Update a pet',
  method: 'patch',
  path: '/pets/{petId}',
  deprecated: false,
  parameters: [
    { name: 'petId', in: 'path', required: true },
    { name: 'If-Match', in: 'header', required: false },
  ],
  bodyMediaType: 'application/merge-patch+json',
  bodyRequired: true,
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

  it('sends a merge patch as application/merge-patch+json, with If-Match when given', () => {
    const planned = planRequest(updatePet, {
      baseUrl: 'http://h/v1',
      apiKey: 'k',
      parameters: { petId: '3', 'If-Match': '"abc"' },
      body: '{"name":"Max"}',
    })
    expect(planned).toEqual({
      url: 'http://h/v1/pets/3',
      method: 'PATCH',
      headers: {
        Accept: 'application/json',
        Authorization: 'Bearer k',
        'If-Match': '"abc"',
        'Content-Type': 'application/merge-patch+json',
      },
      body: '{"name":"Max"}',
    })
  })

  it('requires a required body, and leaves out an optional one left empty', () => {
    const values = { baseUrl: 'http://h/v1', apiKey: 'k', parameters: { petId: '3' }, body: ' ' }
    expect(() => planRequest(updatePet, values)).toThrow(InputError)
    const optional = planRequest({ ...updatePet, bodyRequired: false }, values)
    expect(optional.body).toBeUndefined()
    expect(optional.headers['Content-Type']).toBeUndefined()
  })
})

describe('rememberEtag', () => {
  const answer = (url: string, status: number, headers: Record<string, string>) => ({
    url,
    status,
    headers: new Headers(headers),
  })

  it('keeps a tag by the resource it describes: the created one for a 201', () => {
    const etags = new Map<string, string>()
    rememberEtag(
      etags,
      'POST',
      answer('http://h/v1/pets', 201, { location: '/v1/pets/4', etag: '"a"' }),
    )
    rememberEtag(etags, 'PATCH', answer('http://h/v1/pets/5?x=1', 200, { etag: '"b"' }))
    rememberEtag(etags, 'GET', answer('http://h/v1/pets', 200, {}))
    expect(Object.fromEntries(etags)).toEqual({
      'http://h/v1/pets/4': '"a"',
      'http://h/v1/pets/5': '"b"',
    })
  })

  it('forgets a deleted resource, and keeps the tag a failed write did not change', () => {
    const etags = new Map([['http://h/v1/pets/4', '"a"']])
    rememberEtag(etags, 'PATCH', answer('http://h/v1/pets/4', 412, {}))
    expect(etags.get('http://h/v1/pets/4')).toBe('"a"')
    rememberEtag(etags, 'DELETE', answer('http://h/v1/pets/4', 204, {}))
    expect(etags.size).toBe(0)
  })
})

describe('resourceOf', () => {
  it('is the address the operation acts on, whatever its body or query', () => {
    const values = { baseUrl: '/v1/', apiKey: '', parameters: { petId: '3' }, body: '{' }
    expect(resourceOf(updatePet, values, 'http://h/docs/')).toBe('http://h/v1/pets/3')
    expect(resourceOf(updatePet, { ...values, parameters: {} }, 'http://h/')).toBeUndefined()
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
