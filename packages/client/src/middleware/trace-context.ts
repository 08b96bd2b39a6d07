import type { Middleware } from 'openapi-fetch'

/**
 * The parts of `@opentelemetry/api` this uses, written out so that the package's types need
 * no OpenTelemetry package: pass the module itself (`import * as api from '@opentelemetry/api'`).
 */
export interface OpenTelemetryApi {
  context: { active(): unknown }
  trace: {
    getSpanContext(context: never):
      | {
          traceId: string
          spanId: string
          traceFlags: number
          traceState?: { serialize(): string } | undefined
        }
      | undefined
  }
}

export interface TraceContextOptions {
  /**
   * The OpenTelemetry API to read the active context from. Default: `@opentelemetry/api` as the
   * application can import it, tried once on the first request; when it cannot be imported
   * (not installed, or a browser bundle that left it out), requests go out unchanged. Pass it
   * where a bundler must see the import.
   */
  api?: OpenTelemetryApi
}

// A name, not a literal: bundlers leave the import to run time instead of failing the build
// of an application that does not have the optional peer.
const apiModule = '@opentelemetry/api'
let imported: Promise<OpenTelemetryApi | undefined> | undefined

/** `@opentelemetry/api` when the application has it, imported once for every client. */
function importApi(): Promise<OpenTelemetryApi | undefined> {
  imported ??= import(/* webpackIgnore: true */ /* @vite-ignore */ apiModule).catch(() => undefined)
  return imported
}

type Channel = { hasSubscribers: boolean }
type NodeGlobal = {
  process?: { getBuiltinModule?(name: string): { channel(name: string): Channel } | undefined }
}

/**
 * Sends the caller's W3C trace context: when a request is made inside an active OpenTelemetry
 * span, it carries `traceparent` (and `tracestate`), so the service's span continues the
 * caller's trace. Without `@opentelemetry/api`, or outside any span, nothing is added. A
 * request that already has a `traceparent` keeps it, and none is added while OpenTelemetry's
 * undici instrumentation traces Node's `fetch` (it sends its own, from a client span of its
 * own): never two.
 *
 * The header is written from the active span's context, whatever propagator is registered:
 * the service reads W3C trace context, and an application with only the API (no SDK) still
 * propagates its callers' traces.
 *
 * @see https://www.w3.org/TR/trace-context/#traceparent-header
 * @example
 * ```ts
 * import createClient from 'openapi-fetch'
 * import type { paths } from '@petstore/types'
 * import * as api from '@opentelemetry/api'
 * import { traceContext } from '@petstore/client'
 *
 * const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:3000/v1' })
 * client.use(traceContext({ api }))
 * ```
 */
export function traceContext(options: TraceContextOptions = {}): Middleware {
  // Node's fetch reports each request on this diagnostics channel, where the undici
  // instrumentation listens.
  const undici = (globalThis as NodeGlobal).process
    ?.getBuiltinModule?.('node:diagnostics_channel')
    ?.channel('undici:request:create')
  let api = options.api
  return {
    // openapi-fetch awaits every onRequest: async costs nothing more.
    async onRequest({ request: { headers } }) {
      api ??= await importApi()
      const span = api?.trace.getSpanContext(api.context.active() as never)
      // An invalid context (all-zero ids) is sent as it is: the service starts a trace of its own.
      if (!span || undici?.hasSubscribers || headers.has('traceparent')) return
      headers.set('traceparent', `00-${span.traceId}-${span.spanId}-0${span.traceFlags & 1}`)
      const state = span.traceState?.serialize()
      if (state) headers.set('tracestate', state)
    },
  }
}
