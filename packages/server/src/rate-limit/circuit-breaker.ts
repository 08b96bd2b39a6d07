/**
 * A circuit breaker in front of a service that can stall (accept connections, answer nothing).
 * A per-command deadline alone makes every request wait that deadline while the service is
 * stalled; once a command fails for the service's sake, the circuit opens and calls fail at once
 * with that failure, and a probe in the background (not a request) tries the service every
 * `retryMs` until it answers, which closes the circuit. So while a service is out no request
 * waits for it, and service returns by itself.
 * @see https://martinfowler.com/bliki/CircuitBreaker.html
 */

export interface CircuitBreakerOptions {
  /** True for a failure of the service (opens the circuit), false for a failure of the call. */
  isOutage: (error: unknown) => boolean
  /** Tries the service; resolves when it answers (closes the circuit). */
  probe: () => Promise<unknown>
  /** How often the probe runs while the circuit is open, in milliseconds. */
  retryMs: number
}

export interface CircuitBreaker {
  /** Runs `call`, or while the circuit is open rejects at once with the failure that opened it. */
  run<T>(call: () => Promise<T>): Promise<T>
  /** Stops probing. */
  close(): void
}

/**
 * @example
 * ```ts
 * const breaker = createCircuitBreaker({ isOutage, probe: () => client.ping(), retryMs: 500 })
 * const reply = await breaker.run(() => client.get('key'))
 * ```
 */
export function createCircuitBreaker(options: CircuitBreakerOptions): CircuitBreaker {
  let failure: { error: unknown } | undefined
  let timer: NodeJS.Timeout | undefined
  let closed = false

  const scheduleProbe = () => {
    if (closed) return
    timer = setTimeout(async () => {
      try {
        await options.probe()
      } catch (error) {
        if (options.isOutage(error)) {
          failure = { error }
          scheduleProbe()
          return
        }
      }
      // It answered (a refusal of the probe itself is an answer too).
      failure = undefined
    }, options.retryMs)
    timer.unref()
  }

  return {
    async run(call) {
      if (failure !== undefined) throw failure.error
      try {
        return await call()
      } catch (error) {
        if (options.isOutage(error) && failure === undefined) {
          failure = { error }
          scheduleProbe()
        }
        throw error
      }
    },
    close() {
      closed = true
      clearTimeout(timer)
    },
  }
}
