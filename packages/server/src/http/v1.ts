/**
 * The /v1 pipeline. Every request passes, in order: security and CORS headers and the
 * operation's deprecation headers (first, so that errors carry them too) -> caller
 * identification -> rate limiting (requests without a valid key are limited too, per IP) ->
 * 401 for an operation without a valid key (before a 429 of the IP when a key was sent) ->
 * validation against the spec -> handler.
 * OPTIONS answers before identification (no key, no limits); a known path with another method
 * is 405 (methods.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { createCallerIdentifier } from '../auth/authenticate.js'
import { unauthorized } from '../auth/authenticate.js'
import type { Caller } from '../auth/caller.js'
import { andThen, isPromise, type MaybePromise } from '../maybe-promise.js'
import type { HeaderSink } from '../rate-limit/headers.js'
import type { RateLimitHook } from '../rate-limit/hook.js'
import { createAjv } from '../spec/ajv.js'
import { createValidatorCompiler } from '../spec/request-validation.js'
import { callbackHook } from './callback-hooks.js'
import type { CorsPolicy } from './cors.js'
import { refuseUndeclaredBody } from './media-types.js'
import type { RouteConfig } from './operations.js'

export interface V1PipelineOptions {
  cors: CorsPolicy
  identifyCaller: ReturnType<typeof createCallerIdentifier>
  rateLimit: RateLimitHook
}

/** The headers every /v1 answer starts with, routed or refused below the routes (edge.ts). */
export function writeV1Headers(
  request: Pick<FastifyRequest, 'headers'>,
  reply: HeaderSink,
  cors: CorsPolicy,
): void {
  reply.header('x-content-type-options', 'nosniff')
  reply.header('cache-control', 'no-store')
  cors.apply(request, reply)
}

export function v1Pipeline(scope: FastifyInstance, options: V1PipelineOptions): void {
  const { cors, identifyCaller, rateLimit } = options
  // A callback hook: with the key cached and counts in this process (nearly every request),
  // the steps finish at once, without a promise (maybe-promise.ts).
  scope.addHook(
    'onRequest',
    callbackHook((request, reply) => {
      writeV1Headers(request, reply, cors)
      const config = request.routeOptions.config as RouteConfig
      if (config.deprecation !== undefined) reply.headers(config.deprecation)
      if (config.options !== undefined) return refuseUndeclaredBody(request, config)
      return andThen(identifyCaller(request), (caller) => admit(request, reply, caller, config))
    }),
  )
  scope.setValidatorCompiler(createValidatorCompiler(createAjv({ useDefaults: true })))

  /** Counts the caller's request, then refuses it (throws) when limited or without a valid key. */
  function admit(
    request: FastifyRequest,
    reply: FastifyReply,
    caller: Caller,
    config: RouteConfig,
  ): MaybePromise<void> {
    request.caller = caller
    const refused = config.auth === 'required' && caller.kind !== 'key'
    const check = (limited?: unknown) => {
      // A key that was sent but is not valid (revoked, unknown) is told so, not refused by the
      // limit of its IP: the 401 is what the client must act on. It was still counted.
      if (limited !== undefined && !(refused && request.headers.authorization !== undefined)) {
        throw limited
      }
      if (refused) throw unauthorized(request)
      refuseUndeclaredBody(request, config)
    }
    let counted: MaybePromise<void>
    try {
      counted = rateLimit(request, reply, caller)
    } catch (limited) {
      return check(limited)
    }
    return isPromise(counted) ? counted.then(() => check(), check) : check()
  }
}
