import { operationIds, operationRequestHeaders } from '@petstore/types'
import type { Middleware } from 'openapi-fetch'
import { anySignal, type Clock, systemClock } from '../clock.js'
import { PetstoreConnectionError, PetstoreTimeoutError } from '../errors.js'
import { parseRetryAfter } from '../http/retry-after.js'
import { newIdempotencyKey } from '../idempotency-key.js'

/** Paces attempts against known rate limits and hears about responses the retry discards. */
export interface Pacer {
  acquire(request: Request): Promise<void>
  observe(request: Request, response: Response): void
}

/** Told before each retry: which attempt failed, how, and how long the wait is. */
export interface RetryEvent {
  request: Request
  /** The retry about to be made: 1 for the first retry. */
  retry: number
  delayMs: number
  response?: Response
  error?: PetstoreConnectionError
}

export interface RetryOptions {
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number
  /** Backoff before the first retry, doubled for each further one. Default 500 ms. */
  initialDelayMs?: number
  /** Cap on a backoff delay. Default 8000 ms. */
  maxDelayMs?: number
  /** Each backoff delay is shortened by a random part of up to this fraction. Default 0.25. */
  jitter?: number
  /**
   * The longest `Retry-After` worth waiting for; a longer one returns the response at once.
   * Default 60 000 ms.
   */
  maxRetryAfterMs?: number
  /** Statuses retried (when the request may be replayed). Default 429, 502, 503, 504. */
  statuses?: readonly number[]
  /** Time limit of each attempt; none by default. A call can set its own with `timeoutMs`. */
  timeoutMs?: number
  /**
   * Give a request an automatic `Idempotency-Key` when it has none and its operation declares
   * that header in the spec. Default true.
   */
  idempotencyKeys?: boolean
  clock?: Clock
  /** Source of randomness for jitter, in [0, 1). Default `Math.random`. */
  random?: () => number
  /** Paces retries against rate limits (the {@link rateLimit} middleware is one). */
  pacer?: Pacer
  onRetry?: (event: RetryEvent) => void
}

/** Options one call can pass next to `params`: `client.GET('/pets', { timeoutMs: 500 })`. */
export interface RetryCallOptions {
  timeoutMs?: number
  retry?: Pick<RetryOptions, 'maxRetries'> | false
}

type Outcome =
  | { response: Response; error?: undefined }
  | { response?: undefined; error: PetstoreConnectionError }

interface Call {
  /** Whether the spec declares `Idempotency-Key` for the request's operation. */
  keyed: boolean
  /** The body, kept so every attempt sends it intact. */
  body: ArrayBuffer | undefined
  /** The caller's signal: aborts the call, waits included. */
  signal: AbortSignal
  timeoutMs: number | undefined
  /** The timeout of the attempt in flight. */
  timeout: AbortSignal | undefined
  maxRetries: number
  retries: number
}

/** Methods that may be replayed without an idempotency key. @see https://www.rfc-editor.org/rfc/rfc9110#section-9.2.1 */
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS'])
const idempotencyKeyHeader = 'Idempotency-Key'

/**
 * `METHOD path` of each operation whose spec declares an `Idempotency-Key` request header. Only
 * there does the service replay a repeated request instead of acting twice; elsewhere it ignores
 * the header, so a key would not make a retry safe.
 */
const keyedOperations = new Set(
  Object.entries(operationIds)
    .filter(([, id]) =>
      operationRequestHeaders[id].some((name) => name.toLowerCase() === 'idempotency-key'),
    )
    .map(([route]) => route),
)

async function errorCode(response: Response): Promise<string | undefined> {
  try {
    const body: unknown = await response.clone().json()
    return typeof body === 'object' && body !== null && 'code' in body
      ? String(body.code)
      : undefined
  } catch {
    return undefined
  }
}

/**
 * Retries what is safe to retry. GET, HEAD and OPTIONS are retried on network errors, timeouts
 * and 429/502/503/504; any other method only when its operation declares an `Idempotency-Key`
 * header in the spec and the request carries one (added automatically), which makes the service
 * replay instead of acting twice, and then also on `409 idempotency_key_in_progress`. Another
 * request (a POST to an operation without that header) gets no key and is never retried: after a
 * timeout or a lost connection it may have taken effect. `Retry-After` (seconds or HTTP date) is honoured, else
 * exponential backoff with jitter. A ban (`api_key_banned`) and 400/401/404/422 are returned at
 * once. The body is re-sent intact; the caller's `AbortSignal` also cancels the waits.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3
 * @see https://datatracker.ietf.org/doc/draft-ietf-httpapi-idempotency-key-header/
 * @example
 * ```ts
 * client.use(retry({ maxRetries: 3, timeoutMs: 10_000 }))
 * const { data } = await client.GET('/pets', { timeoutMs: 2000 })
 * ```
 */
export function retry(options: RetryOptions = {}): Middleware {
  const {
    maxRetries = 2,
    initialDelayMs = 500,
    maxDelayMs = 8000,
    jitter = 0.25,
    maxRetryAfterMs = 60_000,
    statuses = [429, 502, 503, 504],
    idempotencyKeys = true,
    random = Math.random,
    pacer,
    onRetry,
  } = options
  const clock = options.clock ?? systemClock
  const calls = new Map<string, Call>()
  const retried = new Set(statuses)
  /** Whether a response with `status` can be retried at all (409 depends on its code). */
  const mayRetry = (status: number) => status === 409 || retried.has(status)

  function backoff(retryIndex: number): number {
    const delay = Math.min(maxDelayMs, initialDelayMs * 2 ** retryIndex)
    return delay * (1 - jitter * random())
  }

  /** Milliseconds to wait before retrying, or `undefined` when this outcome is final. */
  async function delayBeforeRetry(request: Request, call: Call, outcome: Outcome) {
    if (call.retries >= call.maxRetries || call.signal.aborted) return undefined
    const replayable =
      safeMethods.has(request.method) || (call.keyed && request.headers.has(idempotencyKeyHeader))
    if (!replayable) return undefined
    const { response } = outcome
    if (!response) return backoff(call.retries)

    const { status } = response
    let retryable = retried.has(status)
    if (status === 409 || status === 429) {
      const code = await errorCode(response)
      // Another attempt with this key is still running; it will finish and then replay.
      if (status === 409) retryable = code === 'idempotency_key_in_progress'
      // A ban lasts minutes: retrying only extends it.
      if (code === 'api_key_banned') retryable = false
    }
    if (!retryable) return undefined

    const hinted = parseRetryAfter(response.headers.get('Retry-After'), clock.now())
    if (hinted === undefined) return backoff(call.retries)
    return hinted <= maxRetryAfterMs ? hinted : undefined
  }

  function classify(request: Request, call: Call, error: unknown): PetstoreConnectionError {
    if (call.signal.aborted) throw call.signal.reason ?? error
    if (call.timeout?.aborted && call.timeoutMs !== undefined) {
      return new PetstoreTimeoutError(request, call.timeoutMs, error)
    }
    return new PetstoreConnectionError(request, error)
  }

  /** The request for one attempt: the same headers and body, and a fresh timeout. */
  function attemptRequest(request: Request, call: Call): Request {
    call.timeout = call.timeoutMs === undefined ? undefined : AbortSignal.timeout(call.timeoutMs)
    const signal = call.timeout ? anySignal([call.signal, call.timeout]) : call.signal
    return new Request(request, { body: call.body, signal })
  }

  async function settle(
    request: Request,
    call: Call,
    first: Outcome,
    fetch: (input: Request) => Promise<Response>,
  ): Promise<Response> {
    let outcome = first
    for (;;) {
      const delayMs = await delayBeforeRetry(request, call, outcome)
      if (delayMs === undefined) {
        if (outcome.response) return outcome.response
        throw outcome.error
      }
      call.retries += 1
      if (outcome.response) {
        pacer?.observe(request, outcome.response)
        await outcome.response.body?.cancel()
      }
      onRetry?.({ request, retry: call.retries, delayMs, ...outcome })
      await clock.sleep(delayMs, call.signal)
      await pacer?.acquire(request)
      const next = attemptRequest(request, call)
      try {
        outcome = { response: await fetch(next) }
      } catch (error) {
        outcome = { error: classify(next, call, error) }
      }
    }
  }

  return {
    onRequest({ request, id, schemaPath }) {
      const perCall = request as Request & RetryCallOptions
      const keyed = keyedOperations.has(`${request.method} ${schemaPath}`)
      if (idempotencyKeys && keyed && !request.headers.has(idempotencyKeyHeader)) {
        // A Structured Field string, as the draft specifies.
        request.headers.set(idempotencyKeyHeader, `"${newIdempotencyKey()}"`)
      }
      const call: Call = {
        keyed,
        body: undefined,
        signal: request.signal,
        timeoutMs: perCall.timeoutMs ?? options.timeoutMs,
        timeout: undefined,
        maxRetries: perCall.retry === false ? 0 : (perCall.retry?.maxRetries ?? maxRetries),
        retries: 0,
      }
      if (request.body) {
        return request
          .clone()
          .arrayBuffer()
          .then((body) => {
            call.body = body
            calls.set(id, call)
            return attemptRequest(request, call)
          })
      }
      calls.set(id, call)
      // Nothing to keep and no timeout to add: the first attempt is the request as it is.
      return call.timeoutMs === undefined ? undefined : attemptRequest(request, call)
    },

    onResponse({ request, response, id, options: { fetch } }) {
      const call = calls.get(id)
      // Absent when onError below already settled this call.
      if (!call) return undefined
      calls.delete(id)
      if (!mayRetry(response.status)) return undefined
      return settle(request, call, { response }, fetch)
    },

    async onError({ request, error, id, options: { fetch } }) {
      const call = calls.get(id)
      if (!call) return undefined
      calls.delete(id)
      try {
        return await settle(request, call, { error: classify(request, call, error) }, fetch)
      } catch (failure) {
        // Returned, not thrown, so the middleware registered before this one see it too;
        // openapi-fetch throws it after them. An abort reason that is no Error must be thrown.
        if (failure instanceof Error) return failure
        throw failure
      }
    },
  }
}
