/**
 * The one error catalog of the service: every code, its HTTP status and message template.
 * The codes and statuses must equal the spec's `ErrorCode` enum and `x-status` (a test checks),
 * and every error response is built here, never by hand in a route.
 */
import type { ErrorCode } from '@petstore/types'
import { BackendUnavailableError } from './backends/unavailable.js'

export const errorCatalog = {
  invalid_request: { status: 400 },
  unauthorized: { status: 401 },
  not_found: { status: 404 },
  method_not_allowed: { status: 405 },
  idempotency_key_in_progress: { status: 409 },
  payload_too_large: { status: 413 },
  unsupported_media_type: { status: 415 },
  idempotency_key_reused: { status: 422 },
  rate_limited: { status: 429 },
  api_key_banned: { status: 429 },
  internal_error: { status: 500 },
  service_unavailable: { status: 503 },
} as const satisfies Record<ErrorCode, { status: number }>

/**
 * An error meant for the client: thrown anywhere in a request, turned into the Error body
 * `{code, message, status}` (plus `headers`) by the app's single error handler.
 */
export class ApiProblem extends Error {
  readonly status: number

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message)
    this.name = 'ApiProblem'
    this.status = errorCatalog[code].status
  }
}

/** The Error body as sent. */
export interface ErrorBody {
  code: ErrorCode
  message: string
  status: number
}

const unsupportedMediaType = () =>
  new ApiProblem('unsupported_media_type', 'Content-Type must be application/json')
const payloadTooLarge = () =>
  new ApiProblem('payload_too_large', 'the request body exceeds 65536 bytes')

/** Fastify's own errors (body parsing, routing), by their `code`, as catalog problems. */
const fastifyErrors: Readonly<Record<string, () => ApiProblem>> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: unsupportedMediaType,
  FST_ERR_CTP_INVALID_TYPE: unsupportedMediaType,
  FST_ERR_CTP_BODY_TOO_LARGE: payloadTooLarge,
  FST_ERR_CTP_EMPTY_JSON_BODY: () =>
    new ApiProblem('invalid_request', 'body is empty: send a JSON object'),
  FST_ERR_CTP_INVALID_JSON_BODY: () => new ApiProblem('invalid_request', 'body is not valid JSON'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    new ApiProblem('invalid_request', 'the Content-Length header does not match the body'),
  FST_ERR_CTP_INVALID_CHARSET: () =>
    new ApiProblem('unsupported_media_type', 'the body must be UTF-8 JSON'),
}

/** SQLite failures that mean the store cannot answer now (locked, disk, I/O), not a bug. */
const storeUnavailable = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY|PROTOCOL)/

/**
 * Any thrown value as a catalog problem. Problems pass through; Fastify's client errors are
 * mapped by code (or by status); everything else is `internal_error` with a fixed message, so
 * no internal detail reaches a client.
 */
export function toProblem(error: unknown): ApiProblem {
  if (error instanceof ApiProblem) return error
  const candidate = error as { code?: unknown; statusCode?: unknown; name?: unknown }
  const mapped = typeof candidate.code === 'string' ? fastifyErrors[candidate.code] : undefined
  if (mapped !== undefined) return mapped()
  if (
    error instanceof BackendUnavailableError ||
    (typeof candidate.code === 'string' && storeUnavailable.test(candidate.code))
  ) {
    return new ApiProblem(
      'service_unavailable',
      'the service is temporarily unavailable; retry later',
      {
        'retry-after': '1',
      },
    )
  }
  const status = typeof candidate.statusCode === 'number' ? candidate.statusCode : 500
  if (candidate.name === 'SyntaxError' && status === 400) {
    return new ApiProblem('invalid_request', 'body is not valid JSON')
  }
  if (status === 413) return payloadTooLarge()
  if (status === 415) return unsupportedMediaType()
  if (status === 404) return new ApiProblem('not_found', 'no such resource')
  if (status >= 400 && status < 500)
    return new ApiProblem('invalid_request', 'the request is malformed')
  return new ApiProblem(
    'internal_error',
    'an unexpected error occurred; quote the X-Request-Id when reporting it',
  )
}
