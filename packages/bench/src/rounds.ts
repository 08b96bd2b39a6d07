/**
 * Measures one workload on every target in alternating rounds (the order rotates each round),
 * so that drift in the machine's load touches all targets alike; each target's figure is the
 * median of its rounds. The service's RSS is sampled while it is under load.
 */
import { type LoadResult, Rotation, runLoad } from './load.js'
import { sampleRss } from './rss.js'
import { median } from './stats.js'
import type { Target, TargetName } from './targets.js'
import type { Workload } from './workloads.js'

export interface RoundPlan {
  rounds: number
  /** Seconds of each measured run. */
  seconds: number
  /** Seconds of an unrecorded run per target before the first round (JIT, caches). */
  warmupSeconds: number
  connections: number
}

export interface TargetMeasurement {
  runs: LoadResult[]
  /** Medians over the runs. */
  requestsPerSecond: number
  p50: number
  p99: number
  /** Sums over the runs (warm-up included: every response must be a 2xx). */
  non2xx: number
  errors: number
  /** 201 responses, warm-up included (acknowledged creates). */
  created: number
}

export interface WorkloadResult {
  id: Workload['id']
  label: string
  data: string
  connections: number
  /** The contract ceiling's entry is absent when a run did not drive it (older callers, tests). */
  targets: Record<Exclude<TargetName, 'contract'>, TargetMeasurement> &
    Partial<Record<'contract', TargetMeasurement>>
  /** Highest RSS of the service while this workload ran, bytes. */
  servicePeakRss: number | undefined
}

export async function measureWorkload(
  workload: Workload,
  targets: readonly Target[],
  plan: RoundPlan,
  onRun: (line: string) => void = () => {},
): Promise<WorkloadResult> {
  const runs = new Map<TargetName, LoadResult[]>(targets.map((target) => [target.name, []]))
  const extra = new Map<TargetName, LoadResult[]>(targets.map((target) => [target.name, []]))
  let servicePeakRss: number | undefined
  // One rotation per target for all its runs, warm-up included: each run goes on where the last
  // one stopped.
  const calls = new Map(
    targets.map((target) => {
      const walk = target.name === 'wire' ? undefined : workload.rotation?.[target.name]
      return [target.name, walk === undefined ? [workload.calls[target.name]] : new Rotation(walk)]
    }),
  )

  const drive = async (target: Target, seconds: number): Promise<LoadResult> => {
    const sampler = target.name === 'service' ? sampleRss(target.pid) : undefined
    const result = await runLoad({
      url: target.url,
      calls: calls.get(target.name) ?? [],
      connections: plan.connections,
      seconds,
    })
    const peak = sampler?.stop()
    if (peak !== undefined && (servicePeakRss === undefined || peak > servicePeakRss)) {
      servicePeakRss = peak
    }
    return result
  }

  if (plan.warmupSeconds > 0) {
    for (const target of targets)
      extra.get(target.name)?.push(await drive(target, plan.warmupSeconds))
  }
  for (let round = 0; round < plan.rounds; round++) {
    for (let i = 0; i < targets.length; i++) {
      const target = targets[(i + round) % targets.length] as Target
      const result = await drive(target, plan.seconds)
      runs.get(target.name)?.push(result)
      onRun(
        `  ${workload.id} round ${round + 1}/${plan.rounds} ${target.name}: ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.p99.toFixed(2)} ms${result.non2xx + result.errors > 0 ? `, ${result.non2xx} non-2xx, ${result.errors} errors` : ''}`,
      )
    }
  }

  const measured = {} as Record<TargetName, TargetMeasurement>
  for (const target of targets) {
    const own = runs.get(target.name) ?? []
    const all = [...own, ...(extra.get(target.name) ?? [])]
    measured[target.name] = {
      runs: own,
      requestsPerSecond: median(own.map((run) => run.requestsPerSecond)),
      p50: median(own.map((run) => run.p50)),
      p99: median(own.map((run) => run.p99)),
      non2xx: sum(all.map((run) => run.non2xx)),
      errors: sum(all.map((run) => run.errors)),
      created: sum(all.map((run) => run.statuses['201'] ?? 0)),
    }
  }
  return {
    id: workload.id,
    label: workload.label,
    data: workload.data,
    connections: plan.connections,
    targets: measured,
    servicePeakRss,
  }
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0)
}
