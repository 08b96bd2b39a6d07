/** How long and how hard each part of the bench runs, in full and quick mode. */
import type { ClientOverheadPlan } from './client-overhead.js'
import type { LatencyPairPlan } from './latency-pair.js'
import type { CostPlan } from './observability-cost.js'
import type { PairedPlan } from './paired.js'
import type { RoundPlan } from './rounds.js'

export interface BenchPlan {
  mode: 'full' | 'quick'
  rounds: RoundPlan
  /** Pets behind workloads (a), (b), (d), (e). */
  smallPets: number
  /** Pets behind the cold walk of the smaller table. */
  walkPets: number
  /** Depth of the deep page of workload (c). */
  deepPets: number
  /** `sold` pets after the deep ones: what the deep cursor is found with. */
  soldTail: number
  /** Workload (c) at one connection: the deep page against the first page. */
  deepLatency: LatencyPairPlan
  client: ClientOverheadPlan
  soak: {
    seconds: number
    baselineAfterSeconds: number
    /** Share of the measured maximum of workload (a). */
    loadFraction: number
  }
  /** Observability on against off, paired on one build (observability-cost.ts). */
  observabilityCost: CostPlan
  /**
   * The service and the contract ceiling loaded at once (paired.ts): the contract targets as
   * CPU per request, which one run's load touches alike on both sides.
   */
  contractPair: PairedPlan
}

/** The contract targets that one run's throughput ratios could not settle (issue 33). */
const contractPairWorkloads = ['getPet', 'walk', 'walkAvailable', 'create'] as const

export const fullPlan: BenchPlan = {
  mode: 'full',
  rounds: { rounds: 3, seconds: 4, warmupSeconds: 1, connections: 32 },
  smallPets: 1_000,
  walkPets: 100_000,
  deepPets: 1_000_000,
  soldTail: 100,
  deepLatency: { rounds: 6, seconds: 1.5 },
  client: { calls: 2_000, rounds: 5, concurrency: 16 },
  soak: { seconds: 60, baselineAfterSeconds: 10, loadFraction: 0.7 },
  observabilityCost: { rounds: 6, seconds: 3, connections: 16, pets: 100_000 },
  contractPair: {
    rounds: 8,
    seconds: 3,
    connections: 16,
    // Both walks cold: at 100,000 the 2,500 pages of `status=available` fit the service's page
    // cache (4 MiB of text), and from the second lap it answers most of them from memory.
    pets: 200_000,
    only: contractPairWorkloads,
  },
}

export const quickPlan: BenchPlan = {
  mode: 'quick',
  rounds: { rounds: 1, seconds: 2, warmupSeconds: 0, connections: 32 },
  smallPets: 1_000,
  walkPets: 100_000,
  deepPets: 1_000_000,
  soldTail: 100,
  deepLatency: { rounds: 2, seconds: 1 },
  client: { calls: 300, rounds: 2, concurrency: 16 },
  soak: { seconds: 6, baselineAfterSeconds: 2, loadFraction: 0.7 },
  observabilityCost: { rounds: 1, seconds: 1, connections: 16, pets: 10_000 },
  contractPair: {
    rounds: 1,
    seconds: 1,
    connections: 16,
    pets: 10_000,
    only: contractPairWorkloads,
  },
}
