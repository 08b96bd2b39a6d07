/**
 * The one error catalog of the service: every message a client can get, by name, with the code
 * it is sent under and its template. Statuses are the spec's (`ErrorCode.x-status`, read through
 * `errorStatus`), so no second table can disagree; every error response is built from here,
 * never written in a route.
 */
import type { ErrorCode, ErrorCodeStatus } from '@petstore/types'
import { errorStatus } from '@petstore/types/spec'
import { isBackendUnavailable } from './backend-failure.js'

const plural = (count: number, noun: string) => `${count} ${count === 1 ? noun : `${noun}s`}`

/** 64 KiB, as the spec's `PayloadTooLarge` response says: larger bodies are 413. */
export const bodyLimit = 64 * 1024

/** The longest path parameter the router reads (Fastify's default); longer is 400. */
export const maxParamLength = 100

/**
 * What a message echoes of the request (a property's name, a path) at most `max` code points,
 * cut with an ellipsis, so a refusal never grows with what it refuses.
 *
 * @example
 * ```ts
 * echoed('x'.repeat(1000)) // 'xxx…' (64 x's, then …)
 * ```
 */
export function echoed(text: string, max = 64): string {
  const points = [...text.slice(0, max * 2 + 1)]
  return points.length > max ? `${points.slice(0, max).join('')}…` : text
}

export const errorCatalog = {
  invalidInput: { code: 'invalid_request', message: (p: { detail: string }) => p.detail },
  bodyEmpty: { code: 'invalid_request', message: () => 'body is empty: send a JSON object' },
  bodyNotJson: { code: 'invalid_request', message: () => 'body is not valid JSON' },
  unexpectedBody: {
    code: 'invalid_request',
    message: (p: { label: string }) => `${p.label} takes no request body`,
  },
  bodyNotUtf8: { code: 'invalid_request', message: () => 'body is not valid UTF-8' },
  duplicateKey: {
    code: 'invalid_request',
    message: (p: { where: string; key: string }) =>
      `${p.where} has the property ${JSON.stringify(echoed(p.key))} more than once`,
  },
  inexactInteger: {
    code: 'invalid_request',
    message: (p: { where: string }) =>
      `${p.where} must be an integer written in plain digits that JSON numbers hold exactly`,
  },
  malformedRequest: { code: 'invalid_request', message: () => 'the request is malformed' },
  badPercentEncoding: {
    code: 'invalid_request',
    message: () => 'the path is not valid percent-encoded UTF-8',
  },
  badQueryEncoding: {
    code: 'invalid_request',
    message: () => 'the query string is not valid percent-encoded UTF-8',
  },
  pathSegmentTooLong: {
    code: 'invalid_request',
    message: () => `a path segment is longer than ${maxParamLength} characters`,
  },
  invalidCursor: {
    code: 'invalid_request',
    message: () => 'query parameter cursor is not valid; follow the next link as given',
  },
  invalidIdempotencyKey: {
    code: 'invalid_request',
    message: () =>
      'header Idempotency-Key must be 1 to 255 printable ASCII characters, bare or in double quotes',
  },
  keyMissing: {
    code: 'unauthorized',
    message: () => 'the API key is missing; send Authorization: Bearer <key>',
  },
  notBearer: {
    code: 'unauthorized',
    message: () => 'the Authorization header must be Bearer <key>',
  },
  keyNotValid: {
    code: 'unauthorized',
    message: () => 'the API key is unknown, malformed or revoked',
  },
  noSuchPath: {
    code: 'not_found',
    message: (p: { path: string }) => `no such path: ${echoed(p.path, 200)}`,
  },
  noSuchResource: { code: 'not_found', message: () => 'no such resource' },
  unknownId: {
    code: 'not_found',
    message: (p: { resource: string; id: string }) => `${p.resource} ${p.id} does not exist`,
  },
  docsNotBuilt: {
    code: 'not_found',
    message: () =>
      'the docs are not built: set PETSTORE_DOCS_DIR to a built docs directory (in the repository, run pnpm --filter @petstore/docs build)',
  },
  noSuchDocsFile: {
    code: 'not_found',
    message: (p: { file: string }) => `no docs file ${echoed(p.file, 200)}`,
  },
  methodNotAllowed: {
    code: 'method_not_allowed',
    message: (p: { method: string; path: string; allow: string }) =>
      `method ${p.method} is not allowed on ${p.path}; use ${p.allow}`,
  },
  requestTimeout: {
    code: 'request_timeout',
    message: () => 'the request was not received in time; send it again',
  },
  hostMissing: {
    code: 'invalid_request',
    message: () => 'the Host header is required in HTTP/1.1',
  },
  headerRepeated: {
    code: 'invalid_request',
    message: (p: { name: string }) => `header ${p.name} must be sent at most once`,
  },
  unmetExpectation: {
    code: 'invalid_request',
    message: () => 'the Expect header can only be 100-continue',
  },
  headersTooLarge: {
    code: 'headers_too_large',
    message: () => 'the request headers are too large',
  },
  idempotencyKeyInProgress: {
    code: 'idempotency_key_in_progress',
    message: () => 'a request with this Idempotency-Key is still in progress',
  },
  payloadTooLarge: {
    code: 'payload_too_large',
    message: () => `the request body exceeds ${bodyLimit} bytes`,
  },
  notJson: {
    code: 'unsupported_media_type',
    message: () => 'Content-Type must be a JSON media type the operation declares',
  },
  unsupportedMediaType: {
    code: 'unsupported_media_type',
    message: (p: { types: string }) => `Content-Type must be ${p.types}`,
  },
  notUtf8: {
    code: 'unsupported_media_type',
    message: () => 'the Content-Type charset must be utf-8',
  },
  petNotAvailable: {
    code: 'pet_not_available',
    message: (p: { id: number; status: string }) =>
      `pet ${p.id} is not available (it is ${p.status})`,
  },
  invalidTransition: {
    code: 'invalid_transition',
    message: (p: { what: string; from: string; to: string; why: string }) =>
      `${p.what} cannot move from ${p.from} to ${p.to}; ${p.why}`,
  },
  statusNotPatchable: {
    code: 'invalid_transition',
    message: () => "status cannot be patched: a pet's status changes only through its orders",
  },
  petHasOpenOrder: {
    code: 'pet_has_open_order',
    message: (p: { id: number }) =>
      `pet ${p.id} has an open order (placed or approved); deliver or cancel it first`,
  },
  preconditionFailed: {
    code: 'precondition_failed',
    message: (p: { resource: string }) =>
      `If-Match does not match the current ETag of ${p.resource}; read it again`,
  },
  idempotencyKeyReused: {
    code: 'idempotency_key_reused',
    message: () => 'this Idempotency-Key was used with a different request body',
  },
  rateLimited: {
    code: 'rate_limited',
    message: (p: { limit: number; window: string; retryAfter: number }) =>
      `rate limit of ${plural(p.limit, 'request')} per ${p.window} exceeded; retry after ${plural(p.retryAfter, 'second')}`,
  },
  apiKeyBanned: {
    code: 'api_key_banned',
    message: (p: { retryAfter: number }) =>
      `the API key is banned for ${plural(p.retryAfter, 'second')} after repeated requests while rate limited`,
  },
  internalError: {
    code: 'internal_error',
    message: () => 'an unexpected error occurred; quote the X-Request-Id when reporting it',
  },
  serviceBusy: {
    code: 'service_unavailable',
    message: () => 'the service is temporarily unavailable; retry later',
  },
  storeUnreachable: {
    code: 'service_unavailable',
    message: () => 'the store is not reachable; retry later',
  },
  limitsUnreachable: {
    code: 'service_unavailable',
    message: () => 'the rate-limit store is not reachable; retry later',
  },
} as const satisfies Record<string, { code: ErrorCode; message: (params: never) => string }>

export type ProblemName = keyof typeof errorCatalog
type ParamsOf<N extends ProblemName> = Parameters<(typeof errorCatalog)[N]['message']>
/** The status a problem is sent with, as a literal type (so handler results can be checked). */
type StatusOf<N extends ProblemName> = ErrorCodeStatus[(typeof errorCatalog)[N]['code']]

/**
 * An error meant for the client: thrown anywhere in a request (or returned by a handler, whose
 * result type then checks `S` against the operation's declared statuses), turned into the Error
 * body `{code, message, status}` (plus `headers`) by the app's single error handler.
 */
export class ApiProblem<S extends number = number> extends Error {
  readonly status: S
  readonly headers: Record<string, string> = {}

  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message)
    this.name = 'ApiProblem'
    this.status = errorStatus[code] as S
  }

  /** Adds response headers (e.g. `WWW-Authenticate`, `Allow`). */
  withHeaders(headers: Readonly<Record<string, string>>): this {
    Object.assign(this.headers, headers)
    return this
  }

  /**
   * `Retry-After` in whole seconds: the one place that writes it.
   * @see https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3
   */
  retryAfter(seconds: number): this {
    this.headers['retry-after'] = String(seconds)
    return this
  }

  /** The Error body sent for it, whoever writes the response (the error handler or the edge). */
  body(): ErrorBody {
    return { code: this.code, message: this.message, status: this.status }
  }
}

/**
 * The catalog's problem `name`, its message filled in from `params`.
 *
 * @example
 * ```ts
 * throw problem('unknownId', { resource: 'pet', id: '42' })
 * ```
 */
export function problem<N extends ProblemName>(
  name: N,
  ...params: ParamsOf<N>
): ApiProblem<StatusOf<N>> {
  const entry = errorCatalog[name]
  const message = (entry.message as (...args: ParamsOf<N>) => string)(...params)
  return new ApiProblem<StatusOf<N>>(entry.code, message)
}

/**
 * How long a client waits before retrying a `503`, whatever is unavailable (a busy SQLite file,
 * a lost PostgreSQL or Redis, a failed readiness check): backends come back within seconds, and
 * one value keeps clients' backoff predictable.
 */
export const unavailableRetryAfterSeconds = 1

/** A `service_unavailable` problem from the catalog, with the one Retry-After for it. */
export function unavailable(
  name: 'serviceBusy' | 'storeUnreachable' | 'limitsUnreachable',
): ApiProblem {
  return problem(name).retryAfter(unavailableRetryAfterSeconds)
}

/** The Error body as sent. */
export interface ErrorBody {
  code: ErrorCode
  message: string
  status: number
}

/**
 * Fastify's own errors that a request can cause (its content type, its URL), by their `code`. A
 * body is read by http/body-reader.ts, which refuses with the catalog's problems itself.
 */
const fastifyErrors: Readonly<Record<string, ProblemName>> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'notJson',
  FST_ERR_BAD_URL: 'badPercentEncoding',
  FST_ERR_MAX_PARAM_LENGTH: 'pathSegmentTooLong',
}

/**
 * Any thrown value as a catalog problem. Problems pass through; Fastify's client errors are
 * mapped by code (or by status); a backend that cannot serve (the one class every adapter wraps
 * its driver's failures into, backend-failure.ts) is `serviceBusy`; everything else is
 * `internal_error` with a fixed message, so no internal detail reaches a client.
 */
export function toProblem(error: unknown): ApiProblem {
  if (error instanceof ApiProblem) return error
  if (isBackendUnavailable(error)) return unavailable('serviceBusy')
  const candidate = error as { code?: unknown; statusCode?: unknown }
  const mapped = typeof candidate.code === 'string' ? fastifyErrors[candidate.code] : undefined
  if (mapped !== undefined) return problem(mapped)
  const status = typeof candidate.statusCode === 'number' ? candidate.statusCode : 500
  if (status === 413) return problem('payloadTooLarge')
  if (status === 415) return problem('notJson')
  if (status === 404) return problem('noSuchResource')
  if (status >= 400 && status < 500) return problem('malformedRequest')
  return problem('internalError')
}
