/**
 * The /v1 pipeline. Every request passes, in order: security and CORS headers and the
 * operation's deprecation headers (first, so that errors carry them too) -> caller
 * identification -> rate limiting (requests without a valid key are limited too, per IP) ->
 * 401 for an operation without a valid key -> validation against the spec -> handler.
 * OPTIONS answers before identification (no key, no limits); a known path with another method
 * is 405 (methods.ts).
 */
import type { FastifyInstance } from 'fastify'
import type { createCallerIdentifier } from '../auth/authenticate.js'
import { unauthorized } from '../auth/authenticate.js'
import type { RateLimitHook } from '../rate-limit/hook.js'
import { createAjv } from '../spec/ajv.js'
import { createValidatorCompiler } from '../spec/request-validation.js'
import type { CorsPolicy } from './cors.js'
import type { RouteConfig } from './operations.js'

export interface V1PipelineOptions {
  cors: CorsPolicy
  identifyCaller: ReturnType<typeof createCallerIdentifier>
  rateLimit: RateLimitHook
}

const v1Headers = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' }

export function v1Pipeline(scope: FastifyInstance, options: V1PipelineOptions): void {
  const { cors, identifyCaller, rateLimit } = options
  scope.addHook('onRequest', async (request, reply) => {
    reply.headers(v1Headers)
    cors.apply(request, reply)
    const config = request.routeOptions.config as RouteConfig
    if (config.deprecation !== undefined) reply.headers(config.deprecation)
    if (config.options !== undefined) return
    const caller = await identifyCaller(request)
    request.caller = caller
    await rateLimit(request, reply, caller)
    if (config.auth === 'required' && caller.kind !== 'key') throw unauthorized(request)
  })
  scope.setValidatorCompiler(createValidatorCompiler(createAjv({ useDefaults: true })))
}
