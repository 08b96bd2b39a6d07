import type { ApiError, ErrorCode } from '@petstore/types'
import { errorCodeValues } from '@petstore/types'
import { requestIdOf } from './http/request-id.js'

/**
 * The `code` of a {@link PetstoreError}: one of the spec's error codes, or `unexpected_response`
 * when the body was not an Error object (a proxy's HTML 502, for instance).
 */
export type PetstoreErrorCode = ErrorCode | 'unexpected_response'

function isApiError(body: unknown): body is ApiError {
  if (typeof body !== 'object' || body === null) return false
  const { code, message } = body as Record<string, unknown>
  return (
    typeof code === 'string' &&
    (errorCodeValues as readonly string[]).includes(code) &&
    typeof message === 'string'
  )
}

/**
 * An HTTP error answered by the service, for callers who prefer throwing to checking `error`.
 *
 * @example
 * ```ts
 * try {
 *   unwrap(await client.GET('/pets/{petId}', { params: { path: { petId: 42 } } }))
 * } catch (error) {
 *   if (error instanceof PetstoreError && error.code === 'not_found') console.log(error.requestId)
 * }
 * ```
 */
export class PetstoreError extends Error {
  override readonly name = 'PetstoreError'
  /** Machine-readable code from the Error body. */
  readonly code: PetstoreErrorCode
  /** The HTTP status. */
  readonly status: number
  /** The service's `X-Request-Id`: quote it when reporting a problem. */
  readonly requestId: string | undefined
  /** The response that carried the error (its body already read). */
  readonly response: Response
  /** The parsed error body as received. */
  readonly body: unknown

  constructor(response: Response, body: unknown) {
    const apiError = isApiError(body) ? body : undefined
    super(apiError?.message ?? `unexpected HTTP ${response.status} response`)
    this.code = apiError?.code ?? 'unexpected_response'
    this.status = response.status
    this.requestId = requestIdOf(response.headers)
    this.response = response
    this.body = body
  }
}

/**
 * The request never got an HTTP answer: the connection failed or dropped, after any retries.
 *
 * @example
 * ```ts
 * try {
 *   await client.GET('/pets')
 * } catch (error) {
 *   if (error instanceof PetstoreConnectionError) console.log('network down:', error.cause)
 * }
 * ```
 */
export class PetstoreConnectionError extends Error {
  override readonly name: string = 'PetstoreConnectionError'
  /** The method and URL of the request that failed. */
  readonly method: string
  readonly url: string

  constructor(
    request: Request,
    cause: unknown,
    message = `${request.method} ${request.url} failed: no response`,
  ) {
    super(message, { cause })
    this.method = request.method
    this.url = request.url
  }
}

/**
 * An attempt took longer than its `timeoutMs`, after any retries.
 *
 * @example
 * ```ts
 * const client = createPetstoreClient({ baseUrl, apiKey, timeoutMs: 5000 })
 * await client.GET('/pets').catch((error) => error instanceof PetstoreTimeoutError)
 * ```
 */
export class PetstoreTimeoutError extends PetstoreConnectionError {
  override readonly name = 'PetstoreTimeoutError'
  readonly timeoutMs: number

  constructor(request: Request, timeoutMs: number, cause: unknown) {
    super(request, cause, `${request.method} ${request.url} timed out after ${timeoutMs} ms`)
    this.timeoutMs = timeoutMs
  }
}

/** The result shape of every openapi-fetch call. */
export interface FetchResult<Data> {
  data?: Data
  error?: unknown
  response: Response
}

/**
 * Returns `data`, or throws a {@link PetstoreError} when the call answered with an error.
 *
 * @example
 * ```ts
 * const pet = unwrap(await client.POST('/pets', { body: { name: 'Rex', categoryId: 1 } }))
 * console.log(pet.id)
 * ```
 */
export function unwrap<Data>(result: FetchResult<Data>): Data {
  if (result.error !== undefined || !result.response.ok) {
    throw new PetstoreError(result.response, result.error)
  }
  return result.data as Data
}
