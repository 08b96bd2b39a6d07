/**
 * Time as the client sees it: when "now" is and how to wait. Retries and pacing take a `Clock`
 * so tests (and callers with their own schedulers) can replace real waiting.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number
  /** Resolves after `ms`; rejects with the signal's reason as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

/**
 * The real clock: `Date.now` and an abortable `setTimeout`.
 *
 * @example
 * ```ts
 * const logged: Clock = { ...systemClock, sleep: (ms, signal) => (console.info(`waiting ${ms} ms`), systemClock.sleep(ms, signal)) }
 * const client = createPetstoreClient({ baseUrl, apiKey, clock: logged })
 * ```
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason)
        return
      }
      const onAbort = () => {
        clearTimeout(timer)
        reject(signal?.reason)
      }
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      }, ms)
      signal?.addEventListener('abort', onAbort, { once: true })
    }),
}

/**
 * A signal that aborts when any of `signals` does (`AbortSignal.any` where the runtime has it).
 * @see https://dom.spec.whatwg.org/#dom-abortsignal-any
 */
export function anySignal(signals: AbortSignal[]): AbortSignal {
  if (typeof AbortSignal.any === 'function') return AbortSignal.any(signals)
  const controller = new AbortController()
  for (const signal of signals) {
    if (signal.aborted) {
      controller.abort(signal.reason)
      break
    }
    signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true })
  }
  return controller.signal
}
