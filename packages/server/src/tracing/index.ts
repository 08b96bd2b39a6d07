/**
 * Traces, OpenTelemetry's way: configured only by the standard `OTEL_*` environment, off and
 * free when it says nothing. Off, no OpenTelemetry module is loaded and the app is built
 * exactly as without tracing (no hook, no wrapper); on, `sdk.ts` and what it needs are
 * imported here, once, at start.
 *
 * On means: `OTEL_TRACES_EXPORTER=otlp`, or no `OTEL_TRACES_EXPORTER` and an OTLP endpoint
 * (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`); `OTEL_SDK_DISABLED=true`
 * or `OTEL_TRACES_EXPORTER=none` keep it off whatever else is set. Spans go out over OTLP/HTTP,
 * protobuf unless `OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL` says `http/json`. The SDK itself reads
 * the rest from the process environment (endpoint, headers, timeout, `OTEL_SERVICE_NAME`,
 * `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG`, `OTEL_BSP_*`).
 * @see https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/
 * @see https://opentelemetry.io/docs/specs/otel/protocol/exporter/
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { type Config, ConfigError } from '../config.js'
import type { RateLimiter } from '../rate-limit/limiter.js'
import type { Store } from '../store/store.js'

/** What the app needs of tracing once it is on (sdk.ts). */
export interface Tracing {
  /**
   * Server spans for every request the app routes (http.ts); call before the pipeline.
   * `followsSampling` says whose `traceparent` sampling flag is followed
   * (`PETSTORE_TRACE_SAMPLING_FROM`); another request's trace starts here, linked to the caller's.
   */
  instrument(app: FastifyInstance, followsSampling?: (request: FastifyRequest) => boolean): void
  /** The store, each call a child span of the request's (store.ts). */
  traceStore(store: Store, system: 'sqlite' | 'postgresql'): Store
  /** The limiter, each call a child span of the request's (store.ts). */
  traceLimiter(limiter: RateLimiter): RateLimiter
  /** Exports the spans still buffered, then stops. */
  shutdown(): Promise<void>
}

export type OtlpProtocol = 'http/protobuf' | 'http/json'

/** Whether traces are on, and how they leave: what the environment says, checked. */
export function tracingProtocol(
  env: Readonly<Record<string, string | undefined>>,
): OtlpProtocol | undefined {
  const value = (name: string) => {
    const raw = env[name]?.trim()
    return raw === undefined || raw === '' ? undefined : raw
  }
  if (value('OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return undefined
  const exporters = value('OTEL_TRACES_EXPORTER')
    ?.split(',')
    .map((name) => name.trim().toLowerCase())
  if (exporters !== undefined) {
    const unknown = exporters.filter((name) => name !== 'otlp' && name !== 'none')
    if (unknown.length > 0) {
      throw new ConfigError(
        `OTEL_TRACES_EXPORTER must be otlp or none (this server exports over OTLP/HTTP); got ${unknown.join(', ')}`,
      )
    }
    if (!exporters.includes('otlp')) return undefined
  } else if (
    value('OTEL_EXPORTER_OTLP_ENDPOINT') === undefined &&
    value('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') === undefined
  ) {
    return undefined
  }
  for (const name of ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']) {
    const endpoint = value(name)
    if (endpoint !== undefined && !/^https?:\/\/[^/?#\s]+/i.test(endpoint)) {
      throw new ConfigError(`${name} must be an http:// or https:// URL; got ${endpoint}`)
    }
  }
  checkSampler(value('OTEL_TRACES_SAMPLER'), value('OTEL_TRACES_SAMPLER_ARG'))
  const protocolName = value('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL')
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL'
  const protocol = value(protocolName) ?? 'http/protobuf'
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') {
    throw new ConfigError(
      `${protocolName} must be http/protobuf or http/json (this server exports over OTLP/HTTP); got ${protocol}`,
    )
  }
  return protocol
}

/** The samplers the SDK builds from `OTEL_TRACES_SAMPLER`; the ratio ones read `OTEL_TRACES_SAMPLER_ARG`. */
const samplers = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
]

/** The SDK would fall back to its default quietly: a typo would sample what it should not. */
function checkSampler(sampler: string | undefined, arg: string | undefined): void {
  if (sampler !== undefined && !samplers.includes(sampler)) {
    throw new ConfigError(
      `OTEL_TRACES_SAMPLER must be one of ${samplers.join(', ')}; got ${sampler}`,
    )
  }
  if (sampler?.endsWith('traceidratio') && arg !== undefined) {
    const ratio = Number(arg)
    if (!(ratio >= 0 && ratio <= 1)) {
      throw new ConfigError(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1; got ${arg}`)
    }
  }
}

/**
 * Tracing as the environment configures it, or undefined when it is off (nothing loaded).
 * Throws a ConfigError for a setting this server cannot honour (gRPC, another exporter) or that
 * is not one (an endpoint that is no URL, an unknown sampler).
 *
 * @example
 * ```ts
 * const tracing = await startTracing(process.env)
 * const app = await buildApp(config, { store, tracing })
 * // at shutdown, after app.close():
 * await tracing?.shutdown()
 * ```
 */
export async function startTracing(
  env: Readonly<Record<string, string | undefined>>,
): Promise<Tracing | undefined> {
  const protocol = tracingProtocol(env)
  if (protocol === undefined) return undefined
  const { startSdk } = await import('./sdk.js')
  return startSdk(protocol)
}

/** The store, its calls in spans when tracing is on. */
export function tracedStore(
  tracing: Tracing | undefined,
  store: Store,
  config: Pick<Config, 'databaseUrl'>,
): Store {
  if (tracing === undefined) return store
  return tracing.traceStore(store, config.databaseUrl === undefined ? 'sqlite' : 'postgresql')
}

/** The limiter, its calls in spans when tracing is on and counts live in Redis. */
export function tracedLimiter(
  tracing: Tracing | undefined,
  limiter: RateLimiter,
  config: Pick<Config, 'redisUrl'>,
): RateLimiter {
  return tracing === undefined || config.redisUrl === undefined
    ? limiter
    : tracing.traceLimiter(limiter)
}
