/**
 * A function called through a stand-in that is bound once, later: for a dependency cycle that
 * is only crossed at run time. The app's edge handlers are Fastify options (given before the app
 * exists) and count refused requests with the rate-limit hook, whose limiter reports outages
 * through the app's log (which exists only once the app does). Calling it before `bind` throws,
 * naming it, instead of reading an unassigned variable.
 *
 * @example
 * ```ts
 * const rateLimit = lateBound<RateLimitHook>('the rate-limit hook')
 * const app = Fastify({ frameworkErrors: createFrameworkErrorHandler({ ...edge, rateLimit: rateLimit.call }) })
 * rateLimit.bind(createRateLimitHook(await createRateLimiter(config, app.outages), config))
 * ```
 */
export interface LateBound<F extends (...args: never[]) => unknown> {
  /** Calls the bound function; throws when nothing is bound yet. */
  readonly call: F
  /** Binds `implementation`, once. */
  bind(implementation: F): void
}

export function lateBound<F extends (...args: never[]) => unknown>(name: string): LateBound<F> {
  let bound: F | undefined
  const call = ((...args: Parameters<F>) => {
    if (bound === undefined) throw new Error(`${name} was called before it was bound`)
    return bound(...args)
  }) as F
  return {
    call,
    bind(implementation) {
      if (bound !== undefined) throw new Error(`${name} is already bound`)
      bound = implementation
    },
  }
}
