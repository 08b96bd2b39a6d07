/**
 * `petstore_backend_up`: the checks of `/readyz` (routes/health.ts), one per backend: the store
 * answers `ping`, and the Redis limiter says its counts are shared (`local` means Redis is lost
 * and limits fell back to this process).
 */
import type { Config } from '../config.js'
import type { RateLimiter } from '../rate-limit/limiter.js'
import type { Store } from '../store/store.js'
import type { Backend } from './instruments.js'

export function storeBackend(config: Pick<Config, 'databaseUrl'>): 'sqlite' | 'postgresql' {
  return config.databaseUrl === undefined ? 'sqlite' : 'postgresql'
}

export function createBackendProbe(
  config: Pick<Config, 'databaseUrl'>,
  store: Store,
  limiter: RateLimiter,
): () => Promise<ReadonlyMap<Backend, boolean>> {
  const storeName = storeBackend(config)
  return async () => {
    const states = new Map<Backend, boolean>()
    const [storeUp, limits] = await Promise.allSettled([
      store.ping(),
      limiter.readiness === undefined ? undefined : limiter.readiness(),
    ])
    states.set(storeName, storeUp.status === 'fulfilled')
    if (limiter.readiness !== undefined) {
      states.set('redis', limits.status === 'fulfilled' && limits.value === 'shared')
    }
    return states
  }
}
