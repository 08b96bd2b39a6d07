/**
 * Liveness and readiness, outside /v1 and without a key: `/healthz` says the process answers,
 * `/readyz` that the store does too (503 `service_unavailable` otherwise, for load balancers), and
 * with Redis limits, that Redis does: `limits: local` (200) while it is lost in `local` mode,
 * 503 in `closed` mode, where every /v1 request is refused meanwhile.
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
  app.get('/readyz', async (request) => {
    try {
      await store.ping()
    } catch (error) {
      request.log.warn({ err: error }, 'store not reachable')
      throw unavailable('storeUnreachable')
    }
    if (limiter.readiness === undefined) return { status: 'ready' }
    let limits: 'shared' | 'local'
    try {
      limits = await limiter.readiness()
    } catch (error) {
      request.log.warn({ err: error }, 'rate-limit store not reachable')
      throw unavailable('limitsUnreachable')
    }
    return { status: limits === 'local' ? 'degraded' : 'ready', limits }
  })
}
