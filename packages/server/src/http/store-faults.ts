/**
 * One log line per store fault, not a stack per request: while the disk is full every write
 * fails the same way, and a line per request would bury the cause (and fill the disk further).
 * A fault is logged at `error` when it starts or changes; `/readyz`, which writes, logs the
 * recovery.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'

export interface StoreFaults {
  /** A request failed because the store could not serve it. */
  failed(error: unknown): void
  /** The store served a write again. */
  recovered(): void
}

declare module 'fastify' {
  interface FastifyInstance {
    storeFaults: StoreFaults
  }
}

export function createStoreFaults(log: FastifyBaseLogger): StoreFaults {
  let current: string | undefined
  return {
    failed(error) {
      const { code, message } = error as { code?: string; message?: string }
      const fault = `${code ?? 'unknown'}: ${message ?? String(error)}`
      if (fault === current) return
      current = fault
      log.error({ code, reason: message }, 'the store cannot serve requests; answering 503')
    },
    recovered() {
      if (current === undefined) return
      current = undefined
      log.info('the store serves requests again')
    },
  }
}

/** Decorates the app with its fault log, which the error handler and /readyz use. */
export function registerStoreFaults(app: FastifyInstance): void {
  app.decorate('storeFaults', createStoreFaults(app.log))
}
