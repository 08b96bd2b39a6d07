/**
 * Liveness and readiness, outside /v1 and without a key: `/healthz` says the process answers,
 * `/readyz` that the store can serve reads and writes now (503 `service_unavailable` otherwise,
 * for load balancers: a full disk, a database file deleted or replaced, a store out of reach;
 * see Store.ping) and, with Redis limits, that Redis does: `limits: local` (200, `degraded`)
 * while it is lost in `local` mode, 503 in `closed` mode, where every /v1 request is refused
 * meanwhile. Faults and recoveries go to the outage log (http/outages.ts), logged once each.
 */
import type { FastifyInstance } from 'fastify'
import { unavailable } from '../errors.js'
import type { RateLimiter } from '../rate-limit/limiter.js'
import type { Store } from '../store/store.js'

export function registerHealthRoutes(
  app: FastifyInstance,
  store: Store,
  limiter: RateLimiter,
): void {
  app.get('/healthz', async () => ({ status: 'ok' }))
  app.get('/readyz', async () => {
    try {
      await store.ping()
    } catch (error) {
      app.outages.failed('store', error)
      throw unavailable('storeUnreachable')
    }
    app.outages.recovered('store')
    if (limiter.readiness === undefined) return { status: 'ready' }
    let limits: 'shared' | 'local'
    try {
      limits = await limiter.readiness()
    } catch {
      // The fallback reported the loss to the outage log.
      throw unavailable('limitsUnreachable')
    }
    return { status: limits === 'local' ? 'degraded' : 'ready', limits }
  })
}
