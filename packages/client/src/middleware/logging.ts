import type { Middleware } from 'openapi-fetch'
import { type Clock, systemClock } from '../clock.js'
import { PetstoreConnectionError } from '../errors.js'
import { requestIdOf } from '../http/request-id.js'
import { type Log, redactHeaders } from '../logger.js'
import type { RetryEvent } from './retry.js'

/**
 * Logging in two middleware around `retry`: `sent` after it, so it sees each request as it
 * leaves (its automatic `Idempotency-Key` included, redacted), `settled` before it, so it sees
 * the outcome once retries are done; both see the same `Request`, which keys what they share
 * (weakly: an abandoned call leaves nothing behind). `retried` is the retry's `onRetry`.
 */
export interface Logging {
  sent: Middleware
  settled: Middleware
  retried(event: RetryEvent): void
}

/**
 * Logs each call: at `debug` the request as sent (credentials and idempotency keys redacted), at
 * `info` its outcome (method, path, status, duration, request id, retries), at `warn` each retry,
 * at `error` a call that got no answer.
 *
 * @example
 * ```ts
 * const logs = logging(createLog({ level: 'info' }))
 * client.use(logs.settled, retry({ onRetry: logs.retried }), logs.sent)
 * ```
 */
export function logging(log: Log, clock: Clock = systemClock): Logging {
  const started = new WeakMap<Request, number>()
  const retries = new WeakMap<Request, number>()
  const outcome = (request: Request, path: string) => {
    const since = started.get(request)
    return {
      method: request.method,
      path,
      durationMs: since === undefined ? undefined : Math.round(clock.now() - since),
      retries: retries.get(request) ?? 0,
    }
  }
  const settled: Middleware = {
    onError({ request, error, schemaPath }) {
      const details = { ...outcome(request, schemaPath), error }
      const message = `${request.method} ${schemaPath} failed: ${(error as Error).message}`
      if (error instanceof PetstoreConnectionError) log.error?.(message, details)
      else log.debug?.(message, details)
      return undefined
    },
  }
  if (log.info) {
    settled.onResponse = ({ request, response, schemaPath }) => {
      const { status } = response
      const details = {
        ...outcome(request, schemaPath),
        status,
        requestId: requestIdOf(response.headers),
      }
      log.info?.(`${request.method} ${schemaPath} ${status} in ${details.durationMs} ms`, details)
      return undefined
    }
  }
  return {
    settled,
    sent: {
      onRequest({ request, schemaPath }) {
        if (!log.info) return
        started.set(request, clock.now())
        log.debug?.(`${request.method} ${schemaPath}: sending`, {
          method: request.method,
          url: request.url,
          headers: redactHeaders(request.headers),
        })
      },
    },
    retried({ request, retry, delayMs, response, error }) {
      retries.set(request, retry)
      const cause = response ? `HTTP ${response.status}` : error?.message
      log.warn?.(
        `${request.method} ${request.url}: retry ${retry} in ${Math.round(delayMs)} ms after ${cause}`,
        {
          method: request.method,
          url: request.url,
          retry,
          delayMs,
          status: response?.status,
          requestId: response && requestIdOf(response.headers),
        },
      )
    },
  }
}
