/**
 * The one error catalog of the service: every code, its HTTP status and message template.
 * The codes and statuses must equal the spec's `ErrorCode` enum and `x-status` (a test checks),
 * and every error response is built here, never by hand in a route.
 */
import type { ErrorCode } from '@petstore/types'

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
