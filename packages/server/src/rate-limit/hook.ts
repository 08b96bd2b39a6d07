/**
 * PLACEHOLDER until the rate-limit work lands: the contract the app wires into its /v1 scope.
 * Called once per /v1 request after the caller is identified and before the 401 check. It sets
 * the X-RateLimit-* / RateLimit-Policy / RateLimit headers on `reply`, and throws an ApiProblem
 * (`rate_limited` or `api_key_banned`, with `Retry-After`) when the request must not proceed.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Caller } from '../auth/caller.js'

export type RateLimitHook = (request: FastifyRequest, reply: FastifyReply, caller: Caller) => Promise<void>

export function createRateLimitHook(): RateLimitHook {
  return async () => {}
}
