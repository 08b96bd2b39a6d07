/**
 * Liveness and readiness, outside /v1 and without a key: `/healthz` says the process answers,
 * `/readyz` that the store can serve reads and writes now (503 `service_unavailable` otherwise,
 * for load balancers: a full disk, a database file deleted or replaced, a store out of reach or
 * read-only; see Store.ping) and, with Redis limits, that Redis does: `limits: local` (200,
 * `degraded`) while it is lost in `local` mode, 503 in `closed` mode, where every /v1 request is
 * refused meanwhile. Faults and recoveries go to the outage log (backend-failure.ts), logged once
 * each.
 *
 * Anyone may call `/readyz`, as often as they like, so its verdict is shared: one check at a
 * time, and its answer kept for `readinessCacheMs` unless the outage log changed meanwhile (a
 * request found a backend lost or back). A flood costs a map lookup per call.
 */
import type { FastifyInstance } from 'fastify'
import type { Outages } from '../backend-failure.js'
import { unavailable } from '../errors.js'
import type { RateLimiter } from '../rate-limit/limiter.js'
import type { Store } from '../store/store.js'

/** How long a readiness verdict is reused (load balancers probe every few seconds). */
export const readinessCacheMs = 1000

type Readiness = { status: 'ready' | 'degraded'; limits?: 'shared' | 'local' }

export function registerHealthRoutes(
  app: FastifyInstance,
  store: Store,
  limiter: RateLimiter,
): void {
  const readiness = cachedReadiness(app.outages, () => checkReadiness(app.outages, store, limiter))
  app.get('/healthz', async () => ({ status: 'ok' }))
  app.get('/readyz', async () => readiness())
}

async function checkReadiness(
  outages: Outages,
  store: Store,
  limiter: RateLimiter,
): Promise<Readiness> {
  try {
    await store.ping()
  } catch (error) {
    outages.failed('store', error)
    throw unavailable('storeUnreachable')
  }
  outages.recovered('store')
  if (limiter.readiness === undefined) return { status: 'ready' }
  let limits: 'shared' | 'local'
  try {
    limits = await limiter.readiness()
  } catch {
    // The fallback reported the loss to the outage log.
    throw unavailable('limitsUnreachable')
  }
  return { status: limits === 'local' ? 'degraded' : 'ready', limits }
}

/** `check`, run once at a time and its settled verdict reused while fresh. */
function cachedReadiness(
  outages: Outages,
  check: () => Promise<Readiness>,
): () => Promise<Readiness> {
  let cached: { verdict: Promise<Readiness>; atMs: number; changes: number } | undefined
  return () => {
    const fresh =
      cached !== undefined &&
      (cached.atMs === 0 ||
        (Date.now() - cached.atMs < readinessCacheMs && cached.changes === outages.changes()))
    if (fresh && cached !== undefined) return cached.verdict
    const entry = { verdict: check(), atMs: 0, changes: 0 }
    cached = entry
    const settle = () => {
      entry.atMs = Date.now()
      entry.changes = outages.changes()
    }
    entry.verdict.then(settle, settle)
    return entry.verdict
  }
}
