/**
 * Typed client for the Pet Adoption Service: openapi-fetch plus middleware for auth, safe
 * retries, rate-limit pacing and deprecation warnings, and helpers for pagination and errors.
 *
 * @example
 * ```ts
 * import { createPetstoreClient } from '@petstore/client'
 *
 * const client = createPetstoreClient({ baseUrl: 'http://127.0.0.1:3000/v1', apiKey })
 * const { data, error } = await client.GET('/pets', { params: { query: { limit: 10 } } })
 * ```
 */
import type { paths } from '@petstore/types'
import { operationIds } from '@petstore/types'
import { type HttpMethodName, httpMethods } from '@petstore/types/openapi'
import createClient, { type Client } from 'openapi-fetch'
import { type Clock, systemClock } from './clock.js'
import { BuiltRequest, directFetch } from './direct-fetch.js'
import type { RateLimitInfo } from './http/rate-limit-headers.js'
import { createLog, type LoggerOptions } from './logger.js'
import { withDeclaredMediaType } from './media-type.js'
import { type MetaMethod, type MetaRequestMethod, ResponseMeta } from './meta.js'
import { type DeprecationNotice, deprecation, formatDeprecation } from './middleware/deprecation.js'
import { logging } from './middleware/logging.js'
import { type RateLimitContext, rateLimit } from './middleware/rate-limit.js'
import { type RetryOptions, retry } from './middleware/retry.js'
import { type TraceContextOptions, traceContext } from './middleware/trace-context.js'

export type { Clock } from './clock.js'
export { systemClock } from './clock.js'
export type { FetchResult, PetstoreErrorCode } from './errors.js'
export { PetstoreConnectionError, PetstoreError, PetstoreTimeoutError, unwrap } from './errors.js'
export type { NextPage } from './http/link.js'
export type { RateLimitInfo, RateLimitWindow } from './http/rate-limit-headers.js'
export type { LoggerOptions, LogLevel, LogSink } from './logger.js'
export type {
  ErrorMeta,
  MetaFields,
  OperationAt,
  OperationMeta,
  SuccessMeta,
  WithMeta,
} from './meta.js'
export { auth } from './middleware/auth.js'
export type { DeprecationNotice, DeprecationOptions } from './middleware/deprecation.js'
export { deprecation, warnDeprecation } from './middleware/deprecation.js'
export type {
  RateLimitContext,
  RateLimitMiddleware,
  RateLimitOptions,
} from './middleware/rate-limit.js'
export { rateLimit } from './middleware/rate-limit.js'
export type { Pacer, RetryCallOptions, RetryEvent, RetryOptions } from './middleware/retry.js'
export { retry } from './middleware/retry.js'
export type { OpenTelemetryApi, TraceContextOptions } from './middleware/trace-context.js'
export { traceContext } from './middleware/trace-context.js'
export type { ListItem, ListOperationId, Page, PaginateOptions } from './paginate.js'
export { paginate, paginatePages } from './paginate.js'

export interface PetstoreClientOptions {
  /** The service's address including `/v1`, e.g. `https://api.petstore.example/v1`. */
  baseUrl: string
  /** The API key, sent as `Authorization: Bearer <key>`. */
  apiKey: string
  /**
   * The `fetch` to use, called with each attempt's `Request`. Default: `globalThis.fetch`, called
   * with the URL and init of a request that reaches it as it was built (see `direct-fetch.ts`).
   */
  fetch?: (request: Request) => Promise<Response>
  /** Retry settings, or `false` for a single attempt (timeouts and idempotency keys remain). */
  retry?: RetryOptions | false
  /** Time limit of each attempt; a call can pass its own `timeoutMs`. None by default. */
  timeoutMs?: number
  /** Wait for a spent rate-limit window to reset instead of earning a 429. Default `true`. */
  pace?: boolean
  /** Called once per deprecated operation; default: a single warning. */
  onDeprecation?: (notice: DeprecationNotice) => void
  /** Called with the rate limits every response reports. */
  onRateLimit?: (info: RateLimitInfo, context: RateLimitContext) => void
  /** The clock used by retries and pacing (tests replace its `sleep`). */
  clock?: Clock
  /**
   * Log calls to `sink` (default `console`) from `level` on (default `warn`): `debug` each
   * request sent, `info` each outcome, `warn` retries and deprecated operations, `error` calls
   * that got no answer. Keys and idempotency keys are never logged. None without this option.
   */
  logger?: LoggerOptions
  /**
   * Send the caller's OpenTelemetry trace context (`traceparent`, `tracestate`) when a call is
   * made inside an active span, so the service's spans join the caller's trace. On by default:
   * it reads `@opentelemetry/api` when the application has it (an optional peer, imported once)
   * and does nothing otherwise; pass `{ api }` to hand the module over instead of importing it
   * (bundlers), or `false` to send nothing.
   */
  traceContext?: false | TraceContextOptions
}

/** openapi-fetch's call methods: `request` and one per Path Item method, in upper case. */
type CallMethod = 'request' | Uppercase<HttpMethodName>

type MetaMethods = { [Method in HttpMethodName as Uppercase<Method>]: MetaMethod<Method> }

/**
 * An openapi-fetch client for the Pet Adoption Service. Each call's result also carries `meta`:
 * what the response's headers say, typed from the headers the spec declares for the operation.
 */
export interface PetstoreClient extends Omit<Client<paths>, CallMethod>, MetaMethods {
  request: MetaRequestMethod
  /** The rate limits the service last reported for this client's key. */
  rateLimit(): RateLimitInfo | undefined
}

const methods: readonly CallMethod[] = [
  'request',
  ...httpMethods.map((method) => method.toUpperCase() as Uppercase<HttpMethodName>),
]

/**
 * Creates an openapi-fetch client typed by the spec, with middleware for auth, deprecation
 * notices, rate-limit pacing and safe retries. HTTP errors stay values (`{ data, error,
 * response }`); only a call that got no response at all throws.
 *
 * @example
 * ```ts
 * const client = createPetstoreClient({ baseUrl: 'http://127.0.0.1:3000/v1', apiKey, timeoutMs: 5000 })
 * const { data: pet, error } = await client.POST('/pets', { body: { name: 'Rex', categoryId: 1 } })
 * if (error) console.error(error.code, error.message)
 * ```
 */
export function createPetstoreClient(options: PetstoreClientOptions): PetstoreClient {
  const { baseUrl, apiKey, fetch, pace, onDeprecation, onRateLimit, timeoutMs } = options
  const clock = options.clock ?? systemClock
  // The key is a default header rather than the `auth` middleware: same effect (a call's own
  // `Authorization` wins), no work per call.
  const client = createClient<paths>({
    baseUrl,
    headers: { Authorization: `Bearer ${apiKey}` },
    ...(fetch ? { fetch } : { fetch: directFetch, Request: BuiltRequest }),
  })
  const limits = rateLimit({ pace, onRateLimit, clock })
  const retrySettings = options.retry === false ? { maxRetries: 0 } : options.retry
  const log = options.logger && createLog(options.logger)
  const logs = log && logging(log, clock)
  const tracing = options.traceContext
  // onRequest runs in this order and onResponse in reverse: retry settles first, so the other
  // middleware see the final response, and pacing happens before an attempt's timeout starts.
  client.use(
    // Once per call, before retry: every attempt carries the same parent.
    ...(tracing === false ? [] : [traceContext(tracing)]),
    deprecation({
      onDeprecation: log
        ? (notice) => {
            log.warn?.(formatDeprecation(notice), { ...notice })
            onDeprecation?.(notice)
          }
        : onDeprecation,
      operationIds,
    }),
    limits,
    ...(logs ? [logs.settled] : []),
    retry({
      clock,
      timeoutMs,
      ...retrySettings,
      pacer: limits,
      onRetry: logs
        ? (event) => {
            logs.retried(event)
            retrySettings?.onRetry?.(event)
          }
        : retrySettings?.onRetry,
    }),
    ...(logs ? [logs.sent] : []),
  )
  // meta is one object per call; its getters parse a header only when read.
  const withMeta = (result: { response: Response; meta?: ResponseMeta }) => {
    result.meta = new ResponseMeta(result.response, clock.now())
    return result
  }
  const wrapped = client as unknown as Record<
    CallMethod,
    (...args: unknown[]) => Promise<{ response: Response }>
  >
  for (const method of methods) {
    const call = wrapped[method]
    // The body goes out as the type its operation declares (merge patches included).
    wrapped[method] =
      method === 'request'
        ? (verb, path, init) =>
            call(verb, path, withDeclaredMediaType(String(verb), String(path), init as never)).then(
              withMeta,
            )
        : (path, init) =>
            call(path, withDeclaredMediaType(method, String(path), init as never)).then(withMeta)
  }
  return Object.assign(client as unknown as PetstoreClient, { rateLimit: () => limits.get(apiKey) })
}
