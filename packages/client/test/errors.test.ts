import { describe, expect, it } from 'vitest'
import {
  PetstoreConnectionError,
  PetstoreError,
  PetstoreTimeoutError,
  unwrap,
} from '../src/errors.js'

function errorResponse(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'X-Request-Id': 'req-7' } })
}

describe('PetstoreError', () => {
  it('carries the code, status, message and request id of an Error body', () => {
    const body = { code: 'not_found', message: 'pet 42 does not exist', status: 404 }
    const error = new PetstoreError(errorResponse(404, body), body)
    expect(error).toBeInstanceOf(Error)
    expect(error).toMatchObject({
      name: 'PetstoreError',
      code: 'not_found',
      status: 404,
      message: 'pet 42 does not exist',
      requestId: 'req-7',
      body,
    })
    expect(error.response.status).toBe(404)
  })

  it('calls a body that is no Error object an unexpected response', () => {
    const error = new PetstoreError(
      new Response('<html>bad gateway</html>', { status: 502 }),
      '<html>bad gateway</html>',
    )
    expect(error).toMatchObject({ code: 'unexpected_response', status: 502, requestId: undefined })
    expect(error.message).toBe('unexpected HTTP 502 response')
  })

  it('does not take a code outside the spec', () => {
    const body = { code: 'teapot', message: 'short and stout', status: 418 }
    expect(new PetstoreError(errorResponse(418, body), body).code).toBe('unexpected_response')
  })
})

describe('unwrap', () => {
  it('returns data', () => {
    expect(unwrap({ data: [1], response: new Response('[1]') })).toEqual([1])
  })

  it('throws the error as a PetstoreError', () => {
    const body = { code: 'unauthorized', message: 'the API key is missing', status: 401 }
    expect(() => unwrap({ error: body, response: errorResponse(401, body) })).toThrow(
      expect.objectContaining({ name: 'PetstoreError', code: 'unauthorized', status: 401 }),
    )
  })
})

describe('connection errors', () => {
  it('are distinct from HTTP errors, a timeout being one kind', () => {
    const request = new Request('http://127.0.0.1:9/v1/pets')
    const timeout = new PetstoreTimeoutError(request, 500, new Error('aborted'))
    expect(timeout).toBeInstanceOf(PetstoreConnectionError)
    expect(timeout).not.toBeInstanceOf(PetstoreError)
    expect(timeout).toMatchObject({ name: 'PetstoreTimeoutError', method: 'GET', timeoutMs: 500 })
    expect(timeout.message).toBe('GET http://127.0.0.1:9/v1/pets timed out after 500 ms')
  })
})
