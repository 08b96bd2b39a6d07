/**
 * The soak: workload (a) mixed with 10% creates at a fixed rate below the maximum, for a
 * minute. It passes with zero errors and a service whose RSS at the end is within 10% of its
 * RSS after the first 10 seconds (no leak that grows with requests).
 */
import { type HttpCall, type LoadResult, runLoad } from './load.js'
import { readRss } from './rss.js'

export interface SoakPlan {
  seconds: number
  /** When the baseline RSS is read. */
  baselineAfterSeconds: number
  requestsPerSecond: number
  connections: number
}

export interface SoakResult {
  plan: SoakPlan
  load: LoadResult
  /** Bytes. */
  rssBaseline: number | undefined
  rssEnd: number | undefined
  /** rssEnd / rssBaseline - 1. */
  rssGrowth: number | undefined
}

/** Nine list calls, then a create: 10% of the requests write. */
export function soakMix(list: HttpCall, create: HttpCall): HttpCall[] {
  return [...Array.from({ length: 9 }, () => list), create]
}

export async function runSoak(
  url: string,
  pid: number,
  calls: readonly HttpCall[],
  plan: SoakPlan,
): Promise<SoakResult> {
  let rssBaseline: number | undefined
  const baseline = setTimeout(() => {
    rssBaseline = readRss(pid)
  }, plan.baselineAfterSeconds * 1000)
  const load = await runLoad({
    url,
    calls,
    connections: plan.connections,
    seconds: plan.seconds,
    overallRate: plan.requestsPerSecond,
  })
  clearTimeout(baseline)
  const rssEnd = readRss(pid)
  const rssGrowth =
    rssBaseline === undefined || rssEnd === undefined ? undefined : rssEnd / rssBaseline - 1
  return { plan, load, rssBaseline, rssEnd, rssGrowth }
}
