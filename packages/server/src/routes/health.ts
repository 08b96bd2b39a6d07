/**
 * Liveness and readiness, outside /v1 and without a key: `/healthz` says the process answers,
 * `/readyz` that the store does too (503 `service_unavailable` otherwise, for load balancers).
 */
import type { FastifyInstance } from 'fastify'
import { problem } from '../errors.js'
import type { Store } from '../store/store.js'

export function registerHealthRoutes(app: FastifyInstance, store: Store): void {
  app.get('/healthz', async () => ({ status: 'ok' }))
  app.get('/readyz', async (request) => {
    try {
      await store.ping()
    } catch (error) {
      request.log.warn({ err: error }, 'store not reachable')
      throw problem('storeUnreachable').retryAfter(5)
    }
    return { status: 'ready' }
  })
}
