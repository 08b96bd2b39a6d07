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
type List = ReadonlyArray<readonly [name: string, params: Params]>

/**
 * Parses a Structured Field list of the ratelimit-headers draft: `"minute";r=42;t=18, "day";r=9`.
 * Only what those headers use: string or token names with integer parameters. Read by index
 * rather than split into parts: `RateLimit` differs on every response.
 */
function parseList(value: string): List {
  const items: Array<[string, Params]> = []
  for (const member of value.split(',')) {
    const firstParam = member.indexOf(';')
    let name = (firstParam === -1 ? member : member.slice(0, firstParam)).trim()
    if (name.length >= 2 && name.startsWith('"') && name.endsWith('"')) name = name.slice(1, -1)
    if (!name) continue
    const params: Params = {}
    for (let at = firstParam; at !== -1; ) {
      const next = member.indexOf(';', at + 1)
      const end = next === -1 ? member.length : next
      const equals = member.indexOf('=', at + 1)
      if (equals !== -1 && equals < end) {
        const number = Number(member.slice(equals + 1, end))
        if (Number.isFinite(number)) params[member.slice(at + 1, equals).trim()] = number
      }
      at = next
    }
    items.push([name, params])
  }
  return items
}

/** The windows `RateLimit-Policy` declares, by name. */
type Policies = ReadonlyMap<string, Params>
type PolicyParser = (value: string) => Policies

const parsePolicies: PolicyParser = (value) => new Map(parseList(value))

/**
 * `RateLimit-Policy` is the same on every response for a key: a parser that remembers the last
 * value parsed, one per reader (never shared by the clients of a process).
 */
function lastPolicyParser(): PolicyParser {
  let last: { value: string; policies: Policies } | undefined
  return (value) => {
    if (last?.value !== value) last = { value, policies: parsePolicies(value) }
    return last.policies
  }
}

/** The draft's windows, or none without a `RateLimit` field. */
function draftWindows(headers: Headers, now: number, policiesOf: PolicyParser): RateLimitWindow[] {
  const windows: RateLimitWindow[] = []
  const current = headers.get('RateLimit')
  if (!current) return windows
  const declared = headers.get('RateLimit-Policy')
  const policies = declared ? policiesOf(declared) : undefined
  for (const [name, params] of parseList(current)) {
    if (params.r === undefined) continue
    const policy = policies?.get(name)
    windows.push({
      name,
      limit: policy?.q,
      remaining: params.r,
      reset: new Date(now + (params.t ?? 0) * 1000),
      windowSeconds: policy?.w,
    })
  }
  return windows
}

function integerHeader(headers: Headers, name: string): number | undefined {
  const value = headers.get(name)
  return value !== null && /^\s*\d+\s*$/.test(value) ? Number(value) : undefined
}

/** The single window of `X-RateLimit-*`, when `Remaining` and `Reset` (Unix seconds) are there. */
function legacyWindow(headers: Headers): RateLimitWindow | undefined {
  const remaining = integerHeader(headers, 'X-RateLimit-Remaining')
  const resetSeconds = integerHeader(headers, 'X-RateLimit-Reset')
  if (remaining === undefined || resetSeconds === undefined) return undefined
  return {
    name: 'default',
    limit: integerHeader(headers, 'X-RateLimit-Limit'),
    remaining,
    reset: new Date(resetSeconds * 1000),
    windowSeconds: undefined,
  }
}

/**
 * Reads `RateLimit`/`RateLimit-Policy` (draft-ietf-httpapi-ratelimit-headers) or, without them,
 * the de facto `X-RateLimit-Limit/Remaining/Reset` (reset in Unix seconds); `undefined` when
 * neither is there. The summary is the window with the fewest requests left, on a tie the one
 * that resets last (so waiting for it is enough): what `X-RateLimit-*` report, so they need not
 * be read when the draft fields are there.
 *
 * @see https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/
 * @example
 * ```ts
 * const info = parseRateLimit(response.headers, Date.now())
 * if (info?.remaining === 0) console.log('spent until', info.reset)
 * ```
 */
export function parseRateLimit(headers: Headers, now: number): RateLimitInfo | undefined {
  return readRateLimit(headers, now, parsePolicies)
}

/**
 * `parseRateLimit` for a reader of many responses of one key (the rate-limit middleware of one
 * client): its `RateLimit-Policy` is parsed once per distinct value.
 *
 * @example
 * ```ts
 * const read = rateLimitReader()
 * const info = read(response.headers, Date.now())
 * ```
 */
export function rateLimitReader(): (headers: Headers, now: number) => RateLimitInfo | undefined {
  const policiesOf = lastPolicyParser()
  return (headers, now) => readRateLimit(headers, now, policiesOf)
}

function readRateLimit(
  headers: Headers,
  now: number,
  policiesOf: PolicyParser,
): RateLimitInfo | undefined {
  const windows = draftWindows(headers, now, policiesOf)
  if (windows.length === 0) {
    const legacy = legacyWindow(headers)
    if (!legacy) return undefined
    windows.push(legacy)
  }
  let tightest = windows[0] as RateLimitWindow
  for (const window of windows) {
    if (
      window.remaining < tightest.remaining ||
      (window.remaining === tightest.remaining && window.reset > tightest.reset)
    )
      tightest = window
  }
  return { limit: tightest.limit, remaining: tightest.remaining, reset: tightest.reset, windows }
}
