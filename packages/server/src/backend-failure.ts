/**
 * One home for the failure of a backing service, as fastify keeps its errors in one file. Each adapter (the SQLite and
 * PostgreSQL stores, the Redis limiter) knows its own driver's codes and wraps the failures that
 * mean "cannot serve now" into BackendUnavailableError, naming the condition; nothing outside
 * the adapter reads a driver's code. The HTTP edge maps this one class to `503
 * service_unavailable` with `Retry-After` (errors.ts), and the outage log here records each
 * condition once.
 *
 * One log line per condition, not a stack per request: while the disk is full, the database is
 * gone or Redis is lost, every request fails the same way, and a line per request would bury the
 * cause (and fill the disk further). A fault is logged at `error` when it starts or changes
 * condition, the recovery once at `info`.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'

/** What can be out: the store (SQLite or PostgreSQL) or the shared rate-limit counts (Redis). */
export type Backend = 'store' | 'limits'

/** The service behind a backend, for the logs. */
export type Service = 'sqlite' | 'postgres' | 'redis'

/**
 * Why a backend cannot serve, as its adapter classifies its driver's error:
 * - `unreachable`: no connection, or it broke (refused, reset, shut down, too many clients);
 * - `stalled`: connected but not answering within the deadline (or the circuit is open);
 * - `busy`: locked by another writer beyond the wait;
 * - `full`: out of disk or another resource;
 * - `read-only`: the database accepts no writes (read-only file, standby, read-only session);
 * - `moved`: the database file was deleted or replaced under the server;
 * - `io`: an I/O error of the disk.
 */
export type Condition = 'unreachable' | 'stalled' | 'busy' | 'full' | 'read-only' | 'moved' | 'io'

/**
 * A backing service that cannot answer right now: not a bug of the request and not the client's
 * fault. The edge answers it `503 service_unavailable` with Retry-After, so a client backs off
 * and retries; the cause stays in the logs only.
 *
 * @example
 * ```ts
 * throw new BackendUnavailableError('postgres', 'read-only', { cause: error })
 * ```
 */
export class BackendUnavailableError extends Error {
  override name = 'BackendUnavailableError'
  /** The driver's code of the cause (`SQLITE_FULL`, `53100`, `ECONNREFUSED`), for the logs. */
  readonly code: string | undefined

  constructor(
    readonly service: Service,
    readonly condition: Condition,
    options: { cause?: unknown } = {},
  ) {
    const cause = (options.cause ?? {}) as { code?: unknown; message?: unknown }
    const reason = typeof cause.message === 'string' ? cause.message.split('\n', 1)[0] : undefined
    super(`${service} cannot serve (${condition})${reason ? `: ${reason}` : ''}`, options)
    this.code = typeof cause.code === 'string' ? cause.code : undefined
  }

  /** Which backend of the service this is. */
  get backend(): Backend {
    return this.service === 'redis' ? 'limits' : 'store'
  }
}

/**
 * How long a write refused by the store itself (a full disk, an I/O error, a moved file) keeps
 * readiness failing: readiness writes nothing, so it learns of such faults from the writes.
 */
export const failureHoldMs = 10_000

/** Whether `error` is a backend that cannot serve now (as opposed to a bug). */
export function isBackendUnavailable(error: unknown): error is BackendUnavailableError {
  return error instanceof BackendUnavailableError
}

/** `error` as thrown to callers: what `classify` names a condition becomes the one class. */
export function wrapUnavailable(
  service: Service,
  classify: (error: unknown) => Condition | undefined,
  error: unknown,
): unknown {
  if (error instanceof BackendUnavailableError) return error
  const condition = classify(error)
  return condition === undefined
    ? error
    : new BackendUnavailableError(service, condition, { cause: error })
}

export interface Outages {
  /** `backend` could not serve; `message` says what the service does meanwhile. */
  failed(backend: Backend, error: unknown, message?: string): void
  /** `backend` served again. */
  recovered(backend: Backend, message?: string): void
  /** Counts the changes logged so far (a new fault, a recovery): a cached verdict older is stale. */
  changes(): number
}

declare module 'fastify' {
  interface FastifyInstance {
    outages: Outages
  }
}

const defaults: Record<Backend, { failed: string; recovered: string }> = {
  store: {
    failed: 'the store cannot serve requests; answering 503',
    recovered: 'the store serves requests again',
  },
  limits: {
    failed: 'the rate-limit store is not reachable',
    recovered: 'the rate-limit store is reachable again',
  },
}

/** What makes two failures the same fault: the condition, else the code and message. */
function faultOf(error: unknown): string {
  if (error instanceof BackendUnavailableError) return `${error.service}: ${error.condition}`
  const { code, message } = error as { code?: string; message?: string }
  return `${code ?? 'unknown'}: ${message ?? String(error)}`
}

export function createOutages(log: Pick<FastifyBaseLogger, 'error' | 'info'>): Outages {
  const current = new Map<Backend, string>()
  let changes = 0
  return {
    failed(backend, error, message = defaults[backend].failed) {
      const fault = faultOf(error)
      if (current.get(backend) === fault) return
      current.set(backend, fault)
      changes++
      const { code, message: reason } = error as { code?: string; message?: string }
      const condition = error instanceof BackendUnavailableError ? error.condition : undefined
      log.error({ backend, condition, code, reason }, message)
    },
    recovered(backend, message = defaults[backend].recovered) {
      if (!current.delete(backend)) return
      changes++
      log.info({ backend }, message)
    },
    changes: () => changes,
  }
}

/** Decorates the app with its outage log, which the limiter, error handler and /readyz use. */
export function registerOutages(app: FastifyInstance): Outages {
  const outages = createOutages(app.log)
  app.decorate('outages', outages)
  return outages
}
