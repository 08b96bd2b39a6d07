/**
 * The metrics listener: `GET /metrics` on its own port, never the API's, in the Prometheus text
 * format, or OpenMetrics when `Accept` asks for it (Prometheus itself does). Every scrape renders
 * the JSON form of one or more registries (this process's, or every worker's under
 * `PETSTORE_WORKERS`) combined by each metric's `aggregator`: counts are summed, so the primary's
 * one `/metrics` counts every request of every worker exactly.
 *
 * @see https://prometheus.io/docs/instrumenting/exposition_formats/
 * @see https://github.com/OpenObservability/OpenMetrics/blob/main/specification/OpenMetrics.md
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  AggregatorRegistry,
  type MetricObjectWithValues,
  type MetricValue,
  Registry,
} from 'prom-client'
import type { ConnectionBudget } from '../http/connection-cap.js'

export type RegistryJson = MetricObjectWithValues<MetricValue<string>>[]

/** Where a scrape's metrics come from: one array per process. */
export type MetricsSource = () => Promise<RegistryJson[]>

/** The format `accept` asks for: OpenMetrics when it names it, else the Prometheus text format. */
export function contentTypeFor(accept: string | undefined): string {
  return accept?.includes('application/openmetrics-text')
    ? Registry.OPENMETRICS_CONTENT_TYPE
    : Registry.PROMETHEUS_CONTENT_TYPE
}

/** The exposition of `processes` (one registry's JSON each) in `contentType`. */
export async function render(processes: RegistryJson[], contentType: string): Promise<string> {
  const openMetrics = contentType === Registry.OPENMETRICS_CONTENT_TYPE
  const sources = processes.map((metrics) =>
    metrics.map((metric) => {
      let adapted = metric
      // 'omit' drops what cannot be combined across processes (the start time); alone, a
      // process keeps it.
      if (processes.length === 1 && metric.aggregator === 'omit') {
        adapted = { ...adapted, aggregator: 'first' }
      }
      // An OpenMetrics counter family is named without `_total` and its sample with it;
      // prom-client appends it to the samples of a combined registry but leaves the name.
      if (openMetrics && String(metric.type) === 'counter') {
        adapted = { ...adapted, name: adapted.name.replace(/_total$/, '') }
      }
      return adapted
    }),
  )
  // The second parameter (the format) is missing from prom-client's types.
  const aggregate = AggregatorRegistry.aggregate as (
    metrics: RegistryJson[],
    contentType: string,
  ) => Registry
  return aggregate(sources, contentType).metrics()
}

/**
 * Connections the listener keeps at most: a scraper uses one (Prometheus keeps it open between
 * scrapes), so this is room for a few scrapers and people, and no more of the process's budget.
 */
export const scrapeConnections = 16

/** How the listener is bounded, as the API port is. */
export interface ScrapeLimits {
  /** The process's connections, which the listener's count against. */
  connections: ConnectionBudget
  /** Headers and the whole request must arrive within this time (the API's), else `408`. */
  requestTimeoutMs: number
  /** How long an idle connection stays open after an answer (the API's). */
  keepAliveMs: number
}

/**
 * Listens on `host:port` and answers `GET /metrics` from `source`; resolves with the server once
 * it listens, rejects when it cannot. Bounded like the API port: at most `scrapeConnections`,
 * counted in the process's budget, with the API's timeouts.
 */
export async function listenForScrapes(
  host: string,
  port: number,
  source: MetricsSource,
  limits: ScrapeLimits,
): Promise<{ server: Server; url: string }> {
  const options = {
    requestTimeout: limits.requestTimeoutMs,
    headersTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveMs,
    // Node looks for late requests this often: well below the timeout, as on the API port.
    connectionsCheckingInterval: Math.min(1000, limits.requestTimeoutMs / 4),
  }
  const server = createServer(options, (request, response) => {
    const path = (request.url ?? '').split('?', 1)[0]
    if (path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
      response.end('not found: metrics are at /metrics\n')
      return
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' })
      response.end('method not allowed\n')
      return
    }
    const contentType = contentTypeFor(request.headers.accept)
    source()
      .then((processes) => render(processes, contentType))
      .then(
        (text) => {
          response.writeHead(200, { 'content-type': contentType })
          response.end(request.method === 'HEAD' ? undefined : text)
        },
        (error: Error) => {
          response.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' })
          response.end(`metrics unavailable: ${error.message}\n`)
        },
      )
  })
  limits.connections.admit(server, { max: scrapeConnections })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen({ host, port }, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return { server, url: `http://${shownHost}:${address.port}/metrics` }
}
