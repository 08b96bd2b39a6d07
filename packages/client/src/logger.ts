/** How much the client logs: each level includes the ones after it; `off` logs nothing. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off'

/** Where log lines go: `console`, or any object with these methods (pino, winston, …). */
export interface LogSink {
  debug(message: string, details?: Record<string, unknown>): void
  info(message: string, details?: Record<string, unknown>): void
  warn(message: string, details?: Record<string, unknown>): void
  error(message: string, details?: Record<string, unknown>): void
}

/** The client's `logger` option. */
export interface LoggerOptions {
  /** The least severe level logged. Default `warn`: retries, deprecations and failures. */
  level?: LogLevel
  /** Default `console`. */
  sink?: LogSink
}

/** The sink's methods for the levels enabled; the others are absent, so `log.info?.(…)` costs nothing when off. */
export type Log = Partial<LogSink>

const levels = ['debug', 'info', 'warn', 'error'] as const

/**
 * The methods of `sink` from `level` on.
 *
 * @example
 * ```ts
 * const log = createLog({ level: 'info' })
 * log.debug?.('not printed')
 * log.info?.('GET /pets 200 in 12 ms', { requestId })
 * ```
 */
export function createLog({ level = 'warn', sink = console }: LoggerOptions): Log {
  const log: Log = {}
  const from = levels.indexOf(level as (typeof levels)[number])
  if (from !== -1) {
    for (const name of levels.slice(from))
      log[name] = (message, details) => sink[name](message, details)
  }
  return log
}

/** Headers whose values are secrets or replayable credentials: logged as `[redacted]`. */
const secretHeaders = new Set(['authorization', 'proxy-authorization', 'cookie', 'idempotency-key'])

/**
 * `headers` as a plain object, the values of credentials and idempotency keys replaced by
 * `[redacted]`, so a log never holds what could call the service.
 *
 * @example
 * ```ts
 * redactHeaders(request.headers) // { authorization: '[redacted]', accept: 'application/json' }
 * ```
 */
export function redactHeaders(headers: Headers): Record<string, string> {
  const shown: Record<string, string> = {}
  for (const [name, value] of headers) shown[name] = secretHeaders.has(name) ? '[redacted]' : value
  return shown
}
