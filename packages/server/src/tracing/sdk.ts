/**
 * The OpenTelemetry SDK, set up from the environment: loaded only when tracing is on
 * (index.ts). One tracer provider for the process, registered as the global one with the
 * AsyncLocalStorage context manager (so a store call finds its request's span) and the W3C
 * trace-context propagator (`traceparent`, `tracestate`). Spans are batched and exported over
 * OTLP/HTTP; the exporter reads its endpoint, headers and timeout from the environment, the
 * provider its sampler (`OTEL_TRACES_SAMPLER`, default `parentbased_always_on`).
 */
import { readFileSync } from 'node:fs'
import { context, DiagLogLevel, diag, propagation, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import {
  detectResources,
  envDetector,
  resourceFromAttributes,
  serviceInstanceIdDetector,
} from '@opentelemetry/resources'
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions'
import type { FastifyBaseLogger } from 'fastify'
import { instrumentHttp } from './http.js'
import { pooledIdGenerator } from './ids.js'
import type { OtlpProtocol, Tracing } from './index.js'
import { traceLimiter, traceStore } from './store.js'

const manifest = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { name: string; version: string }

/**
 * The SDK's warnings and errors (above all an export that failed: the collector is down or
 * refused the spans, which are then lost) as `warn` lines of the service's log, each distinct
 * message once: a collector that stays down is one line, not one per batch.
 */
function reportTo(log: FastifyBaseLogger): void {
  const seen = new Set<string>()
  const report = (message: string, ...args: unknown[]) => {
    const text = [message, ...args].map(readable).join(' ')
    if (seen.has(text) || seen.size > 100) return
    seen.add(text)
    log.warn(`traces: ${text}`)
  }
  const quiet = () => {}
  diag.setLogger(
    { error: report, warn: report, info: quiet, debug: quiet, verbose: quiet },
    DiagLogLevel.WARN,
  )
}

/** An error's message (the exporter passes errors as JSON text), else the value as text. */
function readable(value: unknown): string {
  if (value instanceof Error) return value.message
  if (typeof value !== 'string') return String(value)
  try {
    const parsed = JSON.parse(value) as { message?: unknown }
    return typeof parsed.message === 'string' ? parsed.message : value
  } catch {
    return value
  }
}

async function exporterFor(protocol: OtlpProtocol) {
  const { OTLPTraceExporter } =
    protocol === 'http/json'
      ? await import('@opentelemetry/exporter-trace-otlp-http')
      : await import('@opentelemetry/exporter-trace-otlp-proto')
  return new OTLPTraceExporter()
}

/** How long shutdown waits for the last spans to leave; the exporter alone retries for longer. */
const lastExportMs = 2000

/**
 * Exports what is buffered and stops, within `ms`: a collector that is gone is reported, and
 * never holds up or fails the server's shutdown.
 */
async function flushWithin(provider: BasicTracerProvider, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      diag.warn(`the last spans were not exported within ${ms} ms; dropped`)
      resolve()
    }, ms)
  })
  const flushed = provider
    .shutdown()
    .catch((error: unknown) => diag.error('the last export failed', error))
  await Promise.race([flushed, late])
  clearTimeout(timer)
}

export async function startSdk(protocol: OtlpProtocol): Promise<Tracing> {
  // `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES` win over these defaults. A UUID per
  // process (`service.instance.id`) tells instances, and workers, apart.
  const resource = resourceFromAttributes({
    [ATTR_SERVICE_NAME]: 'petstore',
    [ATTR_SERVICE_VERSION]: manifest.version,
  }).merge(detectResources({ detectors: [serviceInstanceIdDetector, envDetector] }))
  const provider = new BasicTracerProvider({
    resource,
    idGenerator: pooledIdGenerator(),
    spanProcessors: [new BatchSpanProcessor(await exporterFor(protocol))],
  })
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  propagation.setGlobalPropagator(new W3CTraceContextPropagator())
  trace.setGlobalTracerProvider(provider)
  const tracer = trace.getTracer(manifest.name, manifest.version)
  return {
    instrument: (app, followsSampling) => {
      reportTo(app.log)
      instrumentHttp(app, tracer, followsSampling)
    },
    traceStore: (store, system) => traceStore(store, tracer, system),
    traceLimiter: (limiter) => traceLimiter(limiter, tracer),
    shutdown: () => flushWithin(provider, lastExportMs),
  }
}
