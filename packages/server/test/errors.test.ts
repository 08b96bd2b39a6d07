/** The server's error catalog and the spec's ErrorCode documentation must agree exactly. */
import { type ErrorCode, errorCodeValues } from '@petstore/types'
import { resolveRef } from '@petstore/types/openapi'
import { errorStatus, openapiDocument } from '@petstore/types/spec'
import { expect, it } from 'vitest'
import { BackendUnavailableError } from '../src/backend-failure.js'
import { ApiProblem, errorCatalog, problem, toProblem } from '../src/errors.js'
import { type OperationSpec, specOperations } from '../src/spec/operations.js'

it('has a message for every code of the spec, sent with its status in the spec', () => {
  const used = new Set(Object.values(errorCatalog).map((entry) => entry.code))
  expect([...used].sort()).toEqual([...errorCodeValues].sort())
  expect(problem('unknownId', { resource: 'pet', id: '7' })).toMatchObject({
    code: 'not_found',
    status: errorStatus.not_found,
    message: 'pet 7 does not exist',
  })
})

it('documents every code in the spec description table', () => {
  const description = openapiDocument.info.description
  for (const [code, status] of Object.entries(errorStatus)) {
    expect(
      description,
      `add a row for \`${code}\` (${status}) to the Errors table of info.description in spec/openapi.yaml`,
    ).toMatch(new RegExp(`\\| \`${code}\` \\| ${status} \\|`))
  }
})

/**
 * The error codes a request to `operation` can be answered with, from what the spec says of the
 * operation: the /v1 pipeline answers any request with the first ones, and each further one
 * comes with a part of the operation (a key to check, a body to read, a key to replay, an id to
 * look up). Their statuses are the spec's (`errorStatus`), never a copy.
 */
function errorCodesOf(operation: OperationSpec): ErrorCode[] {
  const codes: ErrorCode[] = [
    'invalid_request',
    'request_timeout',
    'headers_too_large',
    'rate_limited',
    'api_key_banned',
    'internal_error',
    'service_unavailable',
  ]
  if (!operation.public) codes.push('unauthorized')
  if (operation.requestBody !== undefined) codes.push('payload_too_large', 'unsupported_media_type')
  if (operation.parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key')) {
    codes.push('idempotency_key_in_progress', 'idempotency_key_reused')
  }
  if (operation.parameters.some((p) => p.in === 'path')) codes.push('not_found')
  if (operation.parameters.some((p) => p.in === 'header' && p.name === 'If-Match')) {
    codes.push('precondition_failed')
  }
  // The operation's own refusals of a state (an order for a pet that is taken), which only its
  // handler knows: the spec names each in an example of the response that carries it.
  codes.push(...exampleCodes(operation))
  return codes
}

/** The codes of the Error examples of the operation's responses. */
function exampleCodes(operation: OperationSpec): ErrorCode[] {
  const path = (openapiDocument.paths as Record<string, Record<string, unknown>>)[operation.path]
  const raw = path?.[operation.method.toLowerCase()] as { responses: Record<string, unknown> }
  return Object.values(raw.responses).flatMap((declared) => {
    const response = resolveRef<{ content?: Record<string, { examples?: object }> }>(
      openapiDocument,
      declared as object,
    )
    return Object.values(response.content?.['application/json']?.examples ?? {}).flatMap(
      (example) => {
        const { value } = resolveRef<{ value?: { code?: ErrorCode } }>(openapiDocument, example)
        return value?.code === undefined ? [] : [value.code]
      },
    )
  })
}

it.each(specOperations.map((operation) => [operation.operationId, operation] as const))(
  '%s declares exactly the error statuses it can answer with',
  (_, operation) => {
    const declared = Object.keys(operation.responses).filter((status) => Number(status) >= 400)
    const answered = new Set(errorCodesOf(operation).map((code) => String(errorStatus[code])))
    expect(declared.sort()).toEqual([...answered].sort())
  },
)

it('maps Fastify errors and hides unknown ones', () => {
  const fastify = (code: string, statusCode: number) =>
    Object.assign(new Error('internal words'), { code, statusCode })
  expect(toProblem(fastify('FST_ERR_CTP_BODY_TOO_LARGE', 413)).code).toBe('payload_too_large')
  expect(toProblem(fastify('FST_ERR_CTP_INVALID_MEDIA_TYPE', 415)).code).toBe(
    'unsupported_media_type',
  )
  expect(toProblem(fastify('FST_ERR_SOMETHING_NEW', 400)).message).not.toContain('internal words')
  // A backend that cannot serve is the one class its adapter wraps (backend-failure.ts); a
  // driver's code that reaches the edge unwrapped is a bug, hidden like any other.
  expect(toProblem(new BackendUnavailableError('sqlite', 'busy'))).toMatchObject({
    code: 'service_unavailable',
    headers: { 'retry-after': '1' },
  })
  expect(toProblem(fastify('SQLITE_BUSY', 500)).code).toBe('internal_error')
  const unknown = toProblem(new TypeError('cannot read x of undefined at /srv/app.js:1'))
  expect(unknown).toMatchObject({ code: 'internal_error', status: 500 })
  expect(unknown.message).not.toContain('/srv')
  const problem = new ApiProblem('not_found', 'pet 1 does not exist')
  expect(toProblem(problem)).toBe(problem)
})
