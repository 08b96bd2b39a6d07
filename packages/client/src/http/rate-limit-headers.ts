/** One rate-limit window as the service reported it. */
export interface RateLimitWindow {
  /** The policy's name, e.g. `minute` or `day` (`default` when only `X-RateLimit-*` were sent). */
  name: string
  /** The window's quota, when known. */
  limit: number | undefined
  /** Requests left in the window. */
  remaining: number
  /** When the window ends. */
  reset: Date
  /** The window's length in seconds, when known (`w` in `RateLimit-Policy`). */
  windowSeconds: number | undefined
}

/** What a response said about the rate limits of the key that sent it. */
export interface RateLimitInfo {
  /** Quota of the window with the fewest requests remaining. */
  limit: number | undefined
  /** Requests remaining in that window. */
  remaining: number
  /** When that window ends. */
  reset: Date
  /** Every window reported (`RateLimit`), or the single `X-RateLimit-*` one. */
  windows: RateLimitWindow[]
}

type Params = Record<string, number>

/**
 * Parses a Structured Field list of the ratelimit-headers draft: `"minute";r=42;t=18, "day";r=9`.
 * Only what those headers use: string or token names with integer parameters.
 */
function parseList(value: string | null): Map<string, Params> {
  const items = new Map<string, Params>()
  if (!value) return items
  for (const member of value.split(',')) {
    const [rawName = '', ...rawParams] = member.split(';')
    const name = rawName.trim().replace(/^"(.*)"$/, '$1')
    if (!name) continue
    const params: Params = {}
    for (const param of rawParams) {
      const [key = '', raw = ''] = param.split('=')
      const number = Number(raw.trim())
      if (Number.isFinite(number)) params[key.trim()] = number
    }
    items.set(name, params)
  }
  return items
}

function integerHeader(headers: Headers, name: string): number | undefined {
  const value = headers.get(name)
  return value !== null && /^\s*\d+\s*$/.test(value) ? Number(value) : undefined
}

/**
 * Reads `RateLimit`/`RateLimit-Policy` (draft-ietf-httpapi-ratelimit-headers) and the de facto
 * `X-RateLimit-Limit/Remaining/Reset` (reset in Unix seconds); `undefined` when neither is there.
 *
 * @see https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/
 * @example
 * ```ts
 * const info = parseRateLimit(response.headers, Date.now())
 * if (info?.remaining === 0) console.log('spent until', info.reset)
 * ```
 */
export function parseRateLimit(headers: Headers, now: number): RateLimitInfo | undefined {
  const policies = parseList(headers.get('RateLimit-Policy'))
  const windows: RateLimitWindow[] = []
  for (const [name, params] of parseList(headers.get('RateLimit'))) {
    if (params.r === undefined) continue
    const policy = policies.get(name)
    windows.push({
      name,
      limit: policy?.q,
      remaining: params.r,
      reset: new Date(now + (params.t ?? 0) * 1000),
      windowSeconds: policy?.w,
    })
  }

  const remaining = integerHeader(headers, 'X-RateLimit-Remaining')
  const resetSeconds = integerHeader(headers, 'X-RateLimit-Reset')
  const summary =
    remaining !== undefined && resetSeconds !== undefined
      ? {
          limit: integerHeader(headers, 'X-RateLimit-Limit'),
          remaining,
          reset: new Date(resetSeconds * 1000),
        }
      : undefined

  if (windows.length === 0) {
    if (!summary) return undefined
    windows.push({ name: 'default', ...summary, windowSeconds: undefined })
  }
  const tightest = windows.reduce((a, b) => (b.remaining < a.remaining ? b : a))
  return {
    ...(summary ?? { limit: tightest.limit, remaining: tightest.remaining, reset: tightest.reset }),
    windows,
  }
}
