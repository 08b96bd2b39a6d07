/**
 * The rate-limit step of every `/v1` request, run after the caller is identified and before the
 * 401 check (so that requests without a valid key are limited too, per client IP). It counts the
 * request, writes the rate-limit headers, and refuses with 429 when limited or banned; a refused
 * request goes no further, so it does no work.
 */
import type { FastifyRequest } from 'fastify'
import type { Caller } from '../auth/caller.js'
import type { Config } from '../config.js'
import { type ApiProblem, problem } from '../errors.js'
import { andThen, type MaybePromise } from '../maybe-promise.js'
import { type HeaderSink, wholeSeconds, writeRateLimitHeaders } from './headers.js'
import type { BanPolicy, LimitDecision, RateLimiter } from './limiter.js'
import { createQuotaLookup, type QuotaSet } from './quotas.js'

/**
 * Counts `caller`'s request and writes the rate-limit headers to `reply` (a Fastify reply, or
 * the headers of a raw answer written below Fastify: http/edge.ts); throws (or rejects with)
 * the 429 when limited. Done at once when the limiter counts in this process.
 */
export type RateLimitHook = (
  request: Pick<FastifyRequest, 'log'>,
  reply: HeaderSink,
  caller: Caller,
) => MaybePromise<void>

/** The settings the hook reads; their defaults live in config.ts only. */
export type RateLimitSettings = Pick<Config, 'rateLimitWindows' | 'banThreshold' | 'banSeconds'>

/**
 * @param limiter where the counts live; whoever created it closes it
 *
 * @example
 * ```ts
 * const rateLimit = createRateLimitHook(createMemoryRateLimiter(), loadConfig())
 * // In an `onRequest` hook once the caller is known (http/v1.ts); throws the 429 when limited:
 * await rateLimit(request, reply, { kind: 'ip', ip: request.ip })
 * ```
 */
export function createRateLimitHook(
  limiter: RateLimiter,
  settings: RateLimitSettings,
): RateLimitHook {
  const quotasFor = createQuotaLookup(settings.rateLimitWindows)
  const ban: BanPolicy = { threshold: settings.banThreshold, seconds: settings.banSeconds }

  return function rateLimit(request, reply, caller) {
    const quotas = quotasFor(caller)
    const decision =
      caller.kind === 'key'
        ? limiter.consume(caller.key.id, quotas.windows, ban)
        : limiter.consume(`ip:${caller.ip}`, quotas.windows)
    return andThen(decision, (decided) => enforce(request, reply, caller, decided, quotas))
  }

  function enforce(
    request: Pick<FastifyRequest, 'log'>,
    reply: HeaderSink,
    caller: Caller,
    decision: LimitDecision,
    quotas: QuotaSet,
  ): void {
    writeRateLimitHeaders(reply, decision, quotas.policy)
    if (decision.outcome === 'allowed') return
    if (decision.banStarted && caller.kind === 'key') {
      // The key's id only: the raw key never reaches a log.
      request.log.warn(
        { keyId: caller.key.id, banSeconds: ban.seconds },
        'API key banned after repeated requests while rate limited',
      )
    }
    throw refusal(decision, quotas)
  }
}

function refusal(decision: LimitDecision, quotas: QuotaSet): ApiProblem {
  const retryAfter = wholeSeconds(decision.retryInMs)
  if (decision.outcome === 'banned') {
    return problem('apiKeyBanned', { retryAfter }).retryAfter(retryAfter)
  }
  const exhausted = exhaustedWindow(decision) ?? quotas.windows[0]
  return problem('rateLimited', {
    limit: exhausted.limit,
    window: exhausted.name,
    retryAfter,
  }).retryAfter(retryAfter)
}

/** The window that holds the request back longest: the one `Retry-After` waits for. */
function exhaustedWindow(decision: LimitDecision) {
  let found: LimitDecision['windows'][number] | undefined
  for (const state of decision.windows) {
    if (state.remaining === 0 && (found === undefined || state.resetInMs > found.resetInMs)) {
      found = state
    }
  }
  return found?.quota
}
