/**
 * The OpenTelemetry SDK, set up from the environment: loaded only when tracing is on
 * (index.ts). One tracer provider for the process, registered as the global one with the
 * AsyncLocalStorage context manager (so a store call finds its request's span) and the W3C
 * trace-context propagator (`traceparent`, `tracestate`). Spans are batched and exported over
 * OTLP/HTTP; the exporter reads its endpoint, headers and timeout from the environment, the
 * provider its sampler (`OTEL_TRACES_SAMPLER`, default `parentbased_always_on`).
 */
import { readFileSync } from 'node:fs'
import { context, propagation, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources'
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions'
import { instrumentHttp } from './http.js'
import type { OtlpProtocol, Tracing } from './index.js'
import { traceLimiter, traceStore } from './store.js'

const manifest = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { name: string; version: string }

async function exporterFor(protocol: OtlpProtocol) {
  const { OTLPTraceExporter } =
    protocol === 'http/json'
      ? await import('@opentelemetry/exporter-trace-otlp-http')
      : await import('@opentelemetry/exporter-trace-otlp-proto')
  return new OTLPTraceExporter()
}

export async function startSdk(protocol: OtlpProtocol): Promise<Tracing> {
  // `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES` win over these defaults.
  const resource = resourceFromAttributes({
    [ATTR_SERVICE_NAME]: 'petstore',
    [ATTR_SERVICE_VERSION]: manifest.version,
  }).merge(detectResources({ detectors: [envDetector] }))
  const provider = new BasicTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(await exporterFor(protocol))],
  })
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  propagation.setGlobalPropagator(new W3CTraceContextPropagator())
  trace.setGlobalTracerProvider(provider)
  const tracer = trace.getTracer(manifest.name, manifest.version)
  return {
    instrument: (app) => instrumentHttp(app, tracer),
    traceStore: (store, system) => traceStore(store, tracer, system),
    traceLimiter: (limiter) => traceLimiter(limiter, tracer),
    shutdown: () => provider.shutdown(),
  }
}
