/**
 * Latency of two calls on the same target compared at one connection: no queueing, so the
 * figure is the time each request itself takes. The two alternate in short runs (order swapped
 * each round), so drift in the machine's load touches both alike. Workload (c) uses it for the
 * deep page against the first page; at 32 connections the p50 is mostly queueing and swings
 * with whatever else runs on the machine.
 */
import { type HttpCall, runLoad } from './load.js'
import { median } from './stats.js'

export interface LatencyPairPlan {
  rounds: number
  seconds: number
}

export interface LatencySide {
  /** Medians over the runs, milliseconds. */
  p50: number
  p99: number
  mean: number
  non2xx: number
}

export interface LatencyPair {
  connections: 1
  base: LatencySide
  other: LatencySide
  /** other / base. */
  p50Ratio: number
  meanRatio: number
}

export async function measureLatencyPair(
  url: string,
  base: HttpCall,
  other: HttpCall,
  plan: LatencyPairPlan,
): Promise<LatencyPair> {
  const runs = {
    base: [] as Awaited<ReturnType<typeof runLoad>>[],
    other: [] as Awaited<ReturnType<typeof runLoad>>[],
  }
  for (let round = 0; round < plan.rounds; round++) {
    const order = round % 2 === 0 ? (['base', 'other'] as const) : (['other', 'base'] as const)
    for (const side of order) {
      const call = side === 'base' ? base : other
      runs[side].push(await runLoad({ url, calls: [call], connections: 1, seconds: plan.seconds }))
    }
  }
  const summarize = (side: 'base' | 'other'): LatencySide => ({
    p50: median(runs[side].map((run) => run.p50)),
    p99: median(runs[side].map((run) => run.p99)),
    mean: median(runs[side].map((run) => run.mean)),
    non2xx: runs[side].reduce((total, run) => total + run.non2xx + run.errors, 0),
  })
  const summary = { base: summarize('base'), other: summarize('other') }
  return {
    connections: 1,
    ...summary,
    p50Ratio: summary.other.p50 / summary.base.p50,
    meanRatio: summary.other.mean / summary.base.mean,
  }
}
