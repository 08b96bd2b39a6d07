/**
 * One log line per backend outage, not a stack per request: while the disk is full, the
 * database is gone or Redis is lost, every request fails the same way, and a line per request
 * would bury the cause (and fill the disk further). This is the one place that logs outages:
 * the error handler and `/readyz` report store faults here, the Redis fallback its losses.
 * A fault is logged at `error` when it starts or changes (a different code or message), the
 * recovery once at `info`.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'

/** What can be out: the store (SQLite or PostgreSQL) or the shared rate-limit counts (Redis). */
export type Backend = 'store' | 'limits'

export interface Outages {
  /** `backend` could not serve; `message` says what the service does meanwhile. */
  failed(backend: Backend, error: unknown, message?: string): void
  /** `backend` served again. */
  recovered(backend: Backend, message?: string): void
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

export function createOutages(log: Pick<FastifyBaseLogger, 'error' | 'info'>): Outages {
  const current = new Map<Backend, string>()
  return {
    failed(backend, error, message = defaults[backend].failed) {
      const { code, message: reason } = error as { code?: string; message?: string }
      const fault = `${code ?? 'unknown'}: ${reason ?? String(error)}`
      if (current.get(backend) === fault) return
      current.set(backend, fault)
      log.error({ backend, code, reason }, message)
    },
    recovered(backend, message = defaults[backend].recovered) {
      if (!current.delete(backend)) return
      log.info({ backend }, message)
    },
  }
}

/** Decorates the app with its outage log, which the limiter, error handler and /readyz use. */
export function registerOutages(app: FastifyInstance): Outages {
  const outages = createOutages(app.log)
  app.decorate('outages', outages)
  return outages
}
