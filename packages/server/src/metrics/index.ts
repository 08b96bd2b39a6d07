/**
 * Where the rest of the service reaches metrics (`PETSTORE_METRICS_PORT`), without loading them:
 * each entry imports the metrics modules, and prom-client with them, only when the port is set.
 * One process serves its own `/metrics`; under `PETSTORE_WORKERS` the primary serves the sum of
 * the workers' (cluster.ts), and each worker only answers the primary.
 */
import cluster from 'node:cluster'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import type { Config } from '../config.js'
import { type ConnectionBudget, createConnectionBudget } from '../http/connection-cap.js'
import type { AppMetrics } from './app-metrics.js'
import type { ScrapeLimits } from './exposition.js'

export type { AppMetrics } from './app-metrics.js'

type MetricsConfig = Pick<
  Config,
  'metricsPort' | 'metricsHost' | 'databaseUrl' | 'requestTimeoutSeconds' | 'keepAliveSeconds'
>

/** The listener's bounds: the API port's timeouts, its connections in `connections`. */
function scrapeLimits(
  config: Pick<Config, 'requestTimeoutSeconds' | 'keepAliveSeconds'>,
  connections: ConnectionBudget,
): ScrapeLimits {
  return {
    connections,
    requestTimeoutMs: config.requestTimeoutSeconds * 1000,
    keepAliveMs: config.keepAliveSeconds * 1000,
  }
}

/**
 * The metrics an app built with `config` keeps, or undefined when metrics are off.
 *
 * @example
 * ```ts
 * const metrics = await appMetrics(config)
 * const store = metrics?.timeStore(deps.store) ?? deps.store
 * ```
 */
export async function appMetrics(config: MetricsConfig): Promise<AppMetrics | undefined> {
  if (config.metricsPort === undefined) return undefined
  const { createAppMetrics } = await import('./app-metrics.js')
  return createAppMetrics(config)
}

/**
 * Makes the metrics of `app` (built with `appMetrics`) available: in one process, on a listener
 * of their own at `PETSTORE_METRICS_HOST` and `PETSTORE_METRICS_PORT` (rejects when it cannot
 * listen there); in a cluster worker, to the primary. Nothing to do when metrics are off.
 */
export async function exposeMetrics(app: FastifyInstance, config: MetricsConfig): Promise<void> {
  if (config.metricsPort === undefined) return
  const { registryOf } = await import('./app-metrics.js')
  const registry = registryOf(app)
  if (registry === undefined) return
  if (cluster.isWorker) {
    const { answerPrimary } = await import('./cluster.js')
    answerPrimary(registry)
    return
  }
  const { listenForScrapes } = await import('./exposition.js')
  const { server, url } = await listenForScrapes(
    config.metricsHost,
    config.metricsPort,
    async () => [(await registry.getMetricsAsJSON()) as never],
    scrapeLimits(config, app.connections),
  )
  // Closed with the app (a hook cannot be added to an app that listens).
  app.server.once('close', () => server.close())
  app.log.info({ metrics: url }, `metrics at ${url}`)
}

/**
 * In the primary of `PETSTORE_WORKERS`: serves the sum of the workers' metrics; `onError` is
 * told when the port cannot be listened on.
 */
export function serveWorkersMetrics(
  config: Pick<
    Config,
    'metricsPort' | 'metricsHost' | 'requestTimeoutSeconds' | 'keepAliveSeconds' | 'maxConnections'
  >,
  log: Pick<FastifyBaseLogger, 'info'>,
  onError: (error: Error) => void,
): void {
  if (config.metricsPort === undefined) return
  const port = config.metricsPort
  Promise.all([import('./cluster.js'), import('./exposition.js')])
    .then(([{ workersSource }, { listenForScrapes }]) =>
      listenForScrapes(
        config.metricsHost,
        port,
        workersSource(),
        // The primary serves no API: the budget is the listener's alone.
        scrapeLimits(config, createConnectionBudget(config.maxConnections)),
      ),
    )
    .then(({ url }) => log.info({ metrics: url }, `metrics of every worker at ${url}`), onError)
}
