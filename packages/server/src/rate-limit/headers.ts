/**
 * How a limiter's decision reads on the wire: `X-RateLimit-*` for the window with the fewest
 * requests left, and `RateLimit` for every window. `Retry-After` is the refusal's, not written here.
 *
 * @see https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/ RateLimit fields
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3 Retry-After
 */
import type { LimitDecision, WindowState } from './limiter.js'

/** What the headers are written to: a Fastify reply, or anything with the same `header`. */
export interface HeaderSink {
  header(name: string, value: string): unknown
}

/**
 * Whole seconds to wait, rounded up so that a client waiting that long is never early, and at
 * least 1 (RFC 9110 allows 0, but a 0 would invite an immediate, refused retry).
 */
export function wholeSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000))
}

/**
 * Writes the rate-limit fields of `decision`. While banned, nothing passes until the ban ends, so
 * every window reads `r=0` and becomes usable again at the ban's end (or at its own end, if it
 * is used up and outlasts the ban).
 *
 * @param policy the precomputed `RateLimit-Policy` value of the windows
 *
 * @example
 * ```ts
 * writeRateLimitHeaders(reply, decision, '"minute";q=60;w=60, "day";q=1000;w=86400')
 * ```
 */
export function writeRateLimitHeaders(
  sink: HeaderSink,
  decision: LimitDecision,
  policy: string,
): void {
  const banned = decision.outcome === 'banned'
  let field = ''
  let reported: WindowState | undefined
  let reportedRemaining = 0
  let reportedResetInMs = 0
  for (const state of decision.windows) {
    const remaining = banned ? 0 : state.remaining
    const resetInMs = banned ? bannedResetInMs(state, decision.retryInMs) : state.resetInMs
    field += `${field === '' ? '' : ', '}"${state.quota.name}";r=${remaining};t=${wholeSeconds(resetInMs)}`
    // Fewest left wins; on a tie the later reset, so that waiting for it is always enough.
    if (
      reported === undefined ||
      remaining < reportedRemaining ||
      (remaining === reportedRemaining && resetInMs > reportedResetInMs)
    ) {
      reported = state
      reportedRemaining = remaining
      reportedResetInMs = resetInMs
    }
  }
  if (reported === undefined) return
  // Names in lower case, as Fastify keeps them: it lower-cases every name it is given, and a
  // name that was not already would be a new string to look up again on every request.
  sink.header('x-ratelimit-limit', String(reported.quota.limit))
  sink.header('x-ratelimit-remaining', String(reportedRemaining))
  sink.header('x-ratelimit-reset', String(Math.ceil((decision.atMs + reportedResetInMs) / 1000)))
  sink.header('ratelimit-policy', policy)
  sink.header('ratelimit', field)
}

function bannedResetInMs(state: WindowState, banLeftMs: number): number {
  return state.remaining === 0 ? Math.max(state.resetInMs, banLeftMs) : banLeftMs
}
