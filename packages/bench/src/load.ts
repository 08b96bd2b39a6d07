/**
 * One load run with autocannon (keep-alive connections, one request in flight per connection).
 * Latencies are collected per response at full resolution rather than read from autocannon's
 * whole-millisecond histogram, so that sub-millisecond percentiles and ratios stay meaningful.
 */
import autocannon from 'autocannon'
import { percentile } from './stats.js'

export interface HttpCall {
  method: 'GET' | 'POST'
  /** Path and query, e.g. `/v1/pets?limit=20`. */
  path: string
  headers?: Readonly<Record<string, string>>
  body?: string
}

export interface LoadOptions {
  /** Base URL of the target, e.g. `http://127.0.0.1:41234`. */
  url: string
  /**
   * The call every connection repeats (several: each connection walks the list from its start),
   * or a rotation: calls sent in turn over all connections together.
   */
  calls: readonly HttpCall[] | Rotation
  connections: number
  seconds: number
  /** Stop after this many requests instead, however long they take (instructions.ts). */
  requests?: number
  /** Seconds a response may take before it counts as an error (autocannon's 10 by default). */
  timeoutSeconds?: number
  /** Requests per second over all connections; unbounded when absent. */
  overallRate?: number
}

export interface LoadResult {
  requestsPerSecond: number
  /** Milliseconds. */
  p50: number
  p99: number
  mean: number
  /** Responses with a status outside 2xx. */
  non2xx: number
  /** Connection errors and timeouts. */
  errors: number
  /** Responses with a 2xx status. */
  ok: number
  /** Responses per status code. */
  statuses: Readonly<Record<string, number>>
}

function request(call: HttpCall) {
  return {
    method: call.method,
    path: call.path,
    headers: { ...call.headers },
    ...(call.body === undefined ? {} : { body: call.body }),
  }
}

/**
 * Calls sent in turn over all connections together, each once per lap. The position is kept from
 * one run to the next: a run that started again at the first call would ask again for what the
 * last run asked for a moment ago, which a cache of recent pages answers (a cold walk's rounds
 * did, before this was kept).
 */
export class Rotation {
  readonly #requests: ReturnType<typeof request>[]
  #next = 0

  constructor(calls: readonly HttpCall[]) {
    this.#requests = calls.map(request)
  }

  /** One autocannon request that becomes the next call each time any connection sends. */
  request(): autocannon.Request {
    return {
      setupRequest: (defaults) => {
        const chosen = this.#requests[this.#next] as ReturnType<typeof request>
        this.#next = (this.#next + 1) % this.#requests.length
        return { ...defaults, ...chosen }
      },
    }
  }
}

/** Runs the load and summarizes it. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = []
  const statuses: Record<string, number> = {}
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        ...(options.requests === undefined
          ? { duration: options.seconds }
          : { amount: options.requests }),
        ...(options.overallRate === undefined ? {} : { overallRate: options.overallRate }),
        ...(options.timeoutSeconds === undefined ? {} : { timeout: options.timeoutSeconds }),
        requests:
          options.calls instanceof Rotation
            ? [options.calls.request()]
            : options.calls.map(request),
      },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    )
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      latencies.push(responseTime)
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1
    })
  })
  const sorted = Float64Array.from(latencies).sort()
  let sum = 0
  for (const latency of sorted) sum += latency
  return {
    requestsPerSecond: sorted.length / (result.duration || options.seconds),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: sorted.length === 0 ? Number.NaN : sum / sorted.length,
    non2xx: result.non2xx,
    errors: result.errors,
    ok: result['2xx'],
    statuses,
  }
}
