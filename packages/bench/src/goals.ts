/** The targets, checked against one run's figures (ratios within the same run). */
import type { BenchResult } from './bench.js'
import { freeCostRatio } from './observability-cost.js'
import type { WorkloadResult } from './rounds.js'

/**
 * The contract ceiling does the contract's work the leanest way: every workload within 10% of it
 * (the paired section of the report states the same goal as CPU per request).
 */
export const contractGoal = 0.9

export interface Goal {
  name: string
  /** What the issue asks, e.g. `>= 0.90`. */
  goal: string
  measured: string
  /** Undefined when the run could not measure it (e.g. no soak). */
  met: boolean | undefined
}

export const megabyte = 1024 * 1024

function workload(result: BenchResult, id: WorkloadResult['id']) {
  return result.workloads.find((entry) => entry.id === id)
}

/** service / ceiling requests per second for a workload. */
export function ratio(
  entry: WorkloadResult | undefined,
  ceiling: 'wire' | 'data-path' | 'contract',
): number {
  const measured = entry?.targets[ceiling]
  if (entry === undefined || measured === undefined) return Number.NaN
  return entry.targets.service.requestsPerSecond / measured.requestsPerSecond
}

/** The deep page against the first page on the service: latency ratios and the req/s ratio. */
export function deepPageRatios(result: BenchResult) {
  const first = workload(result, 'first-page')?.targets.service
  const deep = workload(result, 'deep-page')?.targets.service
  if (first === undefined || deep === undefined) return undefined
  return {
    p50: deep.p50 / first.p50,
    p99: deep.p99 / first.p99,
    timePerRequest: first.requestsPerSecond / deep.requestsPerSecond,
  }
}

const fixed = (value: number, digits = 2) =>
  Number.isFinite(value) ? value.toFixed(digits) : 'n/a'

export function checkGoals(result: BenchResult): Goal[] {
  const list20 = workload(result, 'list-20')
  const create = workload(result, 'create')
  const deep = deepPageRatios(result)
  const goals: Goal[] = []
  const atLeast = (name: string, value: number, min: number) =>
    goals.push({ name, goal: `>= ${fixed(min)}`, measured: fixed(value), met: value >= min })
  const atMost = (name: string, value: number | undefined, max: number, unit = '') =>
    goals.push({
      name,
      goal: `<= ${max}${unit}`,
      measured: value === undefined ? 'n/a' : `${fixed(value)}${unit}`,
      met: value === undefined || Number.isNaN(value) ? undefined : value <= max,
    })

  atLeast('(a) list 20: service / data-path ceiling', ratio(list20, 'data-path'), 0.9)
  atMost(
    '(c) deep page / first page, p50 latency at 1 connection',
    result.deepLatency?.p50Ratio,
    1.2,
    'x',
  )
  atMost(`(c) the same at ${list20?.connections ?? 32} connections`, deep?.p50, 1.2, 'x')
  const walk20 = workload(result, 'walk-20')
  atLeast(
    `cold walk, limit=20, ${walk20?.data ?? '1,000,100 pets'}: service / data-path ceiling`,
    ratio(walk20, 'data-path'),
    0.9,
  )
  atMost(
    `the same, p99 latency at ${walk20?.connections ?? 32} connections`,
    walk20?.targets.service.p99,
    10,
    ' ms',
  )
  atLeast(
    'cold walk, limit=100: service / data-path ceiling',
    ratio(workload(result, 'walk-100'), 'data-path'),
    0.9,
  )
  atLeast(
    '(e) getPet: service / data-path ceiling',
    ratio(workload(result, 'get'), 'data-path'),
    0.8,
  )
  atLeast('(d) durable create: service / data-path ceiling', ratio(create, 'data-path'), 0.9)
  for (const entry of result.workloads) {
    atLeast(`${entry.label}: service / contract ceiling`, ratio(entry, 'contract'), contractGoal)
  }
  const lost = result.durability?.lost
  goals.push({
    name: '(d) acknowledged pets lost after kill -9',
    goal: '0',
    measured: lost === undefined ? 'not checked' : String(lost),
    met: lost === undefined ? undefined : lost === 0,
  })
  // openapi-fetch's own cost over raw fetch is the library's floor (the (f) table shows it).
  for (const entry of result.client) {
    const overLibrary = entry.clientMs / entry.libraryMs
    atMost(`(f) client / openapi-fetch, ${entry.operation} ${entry.mode}`, overLibrary, 1.05, 'x')
  }
  atMost(
    'peak RSS of the service',
    result.peakRss === undefined ? undefined : result.peakRss / megabyte,
    120,
    ' MB',
  )
  atMost(
    `(a) p99 latency at ${list20?.connections ?? 32} connections`,
    list20?.targets.service.p99,
    10,
    ' ms',
  )
  const errors = result.workloads.reduce(
    (total, entry) => total + entry.targets.service.non2xx + entry.targets.service.errors,
    0,
  )
  goals.push({
    name: 'non-2xx responses and errors from the service',
    goal: '0',
    measured: String(errors),
    met: errors === 0,
  })
  for (const row of result.observabilityCost) {
    atMost(`${row.variant} / off, CPU per request: ${row.workload}`, row.median, freeCostRatio)
  }
  const soak = result.soak
  if (soak !== undefined) {
    const soakErrors = soak.load.non2xx + soak.load.errors
    goals.push({
      name: `soak: errors in ${soak.plan.seconds} s`,
      goal: '0',
      measured: String(soakErrors),
      met: soakErrors === 0,
    })
    goals.push({
      name: 'soak: RSS at the end vs after the first seconds',
      goal: 'within 10%',
      measured: soak.rssGrowth === undefined ? 'n/a' : `${(soak.rssGrowth * 100).toFixed(1)}%`,
      met: soak.rssGrowth === undefined ? undefined : Math.abs(soak.rssGrowth) <= 0.1,
    })
  }
  return goals
}
