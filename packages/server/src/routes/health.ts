/**
 * Liveness and readiness, outside /v1 and without a key: `/healthz` says the process answers,
 * `/readyz` that the store can serve reads and writes now (503 `service_unavailable` otherwise,
 * for load balancers: a full disk, a database file deleted or replaced, a store out of reach).
 */
import type { FastifyInstance } from 'fastify'
import { problem } from '../errors.js'
import type { Store } from '../store/store.js'

export function registerHealthRoutes(app: FastifyInstance, store: Store): void {
  app.get('/healthz', async () => ({ status: 'ok' }))
  app.get('/readyz', async () => {
    try {
      await store.ping()
    } catch (error) {
      app.storeFaults.failed(error)
      throw problem('storeUnreachable').retryAfter(5)
    }
    app.storeFaults.recovered()
    return { status: 'ready' }
  })
}
