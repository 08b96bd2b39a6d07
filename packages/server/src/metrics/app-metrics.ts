/**
 * The metrics of one server process, tied to its app: loaded only when `PETSTORE_METRICS_PORT`
 * is set (index.ts), so that without it neither prom-client nor a hook is in the process.
 */
import type { FastifyInstance } from 'fastify'
import type { Registry } from 'prom-client'
import type { Config } from '../config.js'
import type { Completion } from '../http/completion-log.js'
import type { RateLimitHook } from '../rate-limit/hook.js'
import type { RateLimiter } from '../rate-limit/limiter.js'
import type { Store } from '../store/store.js'
import { createBackendProbe, storeBackend } from './backends.js'
import { type ObservedRequests, observeRequests } from './http.js'
import { type Backend, createInstruments } from './instruments.js'
import { countRefusals } from './rate-limit.js'
import { timeStore } from './store.js'

export interface AppMetrics {
  /** `store`, each call timed. */
  timeStore(store: Store): Store
  /** `hook`, its refusals counted. */
  countRefusals(hook: RateLimitHook): RateLimitHook
  /** Observes what http/edge.ts answers below the routes. */
  answeredBelow(completion: Completion): void
  /** Observes every request of `app` and probes its backends at each scrape. */
  observe(app: FastifyInstance, backends: { store: Store; limiter: RateLimiter }): void
}

const registries = new WeakMap<FastifyInstance, Registry>()

/** The registry of an app built with metrics, for the listener (index.ts). */
export function registryOf(app: FastifyInstance): Registry | undefined {
  return registries.get(app)
}

export function createAppMetrics(config: Pick<Config, 'databaseUrl'>): AppMetrics {
  // Both are known once the app exists (`observe`); a scrape before that sees none.
  let probe: () => Promise<ReadonlyMap<Backend, boolean>> = async () => new Map()
  let requests: ObservedRequests | undefined
  const instruments = createInstruments({
    backends: () => probe(),
    activeRequests: () => requests?.active() ?? 0,
  })
  return {
    timeStore: (store) => timeStore(store, instruments.storeDuration, storeBackend(config)),
    countRefusals: (hook) => countRefusals(hook, instruments.rateLimitRefusals),
    answeredBelow: (completion) => requests?.answeredBelow(completion),
    observe(app, { store, limiter }) {
      requests = observeRequests(app, instruments.requestDuration)
      probe = createBackendProbe(config, store, limiter)
      registries.set(app, instruments.registry)
    },
  }
}
