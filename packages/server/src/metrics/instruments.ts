/**
 * The service's metrics, named by the OpenTelemetry semantic conventions where one exists (so a
 * dashboard that knows `http.server.request.duration` reads them as they are) and `petstore_*`
 * for what is the service's own. Each process keeps its own in a registry of its own; the
 * listener (exposition.ts) renders them, summed over the workers under `PETSTORE_WORKERS`, so
 * every metric says how its values combine across processes (`aggregator`).
 *
 * @see https://opentelemetry.io/docs/specs/semconv/http/http-metrics/
 * @see https://opentelemetry.io/docs/specs/semconv/database/database-metrics/
 */
import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client'
import { HistogramFamily } from './histogram.js'

/** `http.server.request.duration`'s advised bucket boundaries, in seconds. */
export const requestDurationBuckets = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
]

/** `db.client.operation.duration`'s advised bucket boundaries, in seconds. */
export const storeDurationBuckets = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10]

const droppedDefaults = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
]

export type Backend = 'sqlite' | 'postgresql' | 'redis'

export interface Instruments {
  registry: Registry
  requestDuration: HistogramFamily<
    'http_request_method' | 'http_route' | 'http_response_status_code'
  >
  activeRequests: Gauge
  rateLimitRefusals: Counter<'reason' | 'plan'>
  backendUp: Gauge<'backend'>
  storeDuration: HistogramFamily<'db_system_name' | 'db_operation_name' | 'outcome'>
}

/** What gauges read at each scrape. */
export interface GaugeSources {
  /** Whether each backend serves now. */
  backends(): Promise<ReadonlyMap<Backend, boolean>>
  /** Requests received and not answered yet. */
  activeRequests(): number
}

/**
 * A registry with every metric of one process, the process's own (CPU, memory, event-loop lag,
 * GC: prom-client's default metrics) included.
 */
export function createInstruments(sources: GaugeSources): Instruments {
  const registry = new Registry()
  const registers = [registry]
  collectDefaultMetrics({ register: registry })
  // Gauges named like counters (promtool refuses them); the same gauges without `_total`, by
  // type, say the same.
  for (const name of droppedDefaults) registry.removeSingleMetric(name)
  const requestDuration = new HistogramFamily(
    'http_server_request_duration_seconds',
    'Duration of HTTP server requests, from the request to the end of the answer.',
    ['http_request_method', 'http_route', 'http_response_status_code'],
    requestDurationBuckets,
  )
  const storeDuration = new HistogramFamily(
    'db_client_operation_duration_seconds',
    'Duration of calls to the store, by store method (db_operation_name) and outcome.',
    ['db_system_name', 'db_operation_name', 'outcome'],
    storeDurationBuckets,
  )
  requestDuration.registerIn(registry)
  storeDuration.registerIn(registry)
  return {
    registry,
    requestDuration,
    storeDuration,
    activeRequests: new Gauge({
      name: 'http_server_active_requests',
      help: 'HTTP server requests received and not answered yet.',
      registers,
      collect() {
        this.set(sources.activeRequests())
      },
    }),
    rateLimitRefusals: new Counter({
      name: 'petstore_rate_limit_refusals_total',
      help: 'Requests refused with 429 by the rate limits, by reason and by the plan of the caller (none: no valid key, limited per client IP).',
      labelNames: ['reason', 'plan'],
      registers,
    }),
    backendUp: new Gauge({
      name: 'petstore_backend_up',
      help: 'Whether a backend serves now (1) or not (0): the checks of /readyz, run at each scrape.',
      labelNames: ['backend'],
      // Up only when every worker reaches it.
      aggregator: 'min',
      registers,
      async collect() {
        for (const [backend, up] of await sources.backends()) this.set({ backend }, up ? 1 : 0)
      },
    }),
  }
}
