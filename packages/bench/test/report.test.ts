import { describe, expect, it } from 'vitest'
import type { BenchResult } from '../src/bench.js'
import { checkGoals } from '../src/goals.js'
import type { LoadResult } from '../src/load.js'
import { quickPlan } from '../src/plan.js'
import { renderReport, table } from '../src/report.js'
import type { TargetMeasurement, WorkloadResult } from '../src/rounds.js'

const mb = 1024 * 1024

function measured(
  requestsPerSecond: number,
  p50: number,
  p99: number,
  non2xx = 0,
): TargetMeasurement {
  const run: LoadResult = {
    requestsPerSecond,
    p50,
    p99,
    mean: p50,
    non2xx,
    errors: 0,
    ok: 100,
    statuses: { '200': 100 },
  }
  return { runs: [run], requestsPerSecond, p50, p99, non2xx, errors: 0, created: 0 }
}

function workload(
  id: WorkloadResult['id'],
  service: TargetMeasurement,
  dataPath: number,
  wire: number,
  contract = 10_000,
): WorkloadResult {
  return {
    id,
    label: `label of ${id}`,
    data: '1,000 pets',
    connections: 32,
    targets: {
      service,
      'data-path': measured(dataPath, 1, 2),
      wire: measured(wire, 1, 2, 3),
      contract: measured(contract, 1, 2),
    },
    servicePeakRss: 80 * mb,
  }
}

const result: BenchResult = {
  machine: {
    cpuModel: 'Test CPU',
    cores: 2,
    memory: 8 * 1024 ** 3,
    node: 'v20.20.2',
    kernel: 'linux 6',
    loadAverage: 0.5,
    date: '2026-11-22T07:00:00.000Z',
  },
  revision: 'abc1234',
  serverDir: '/repo/packages/server',
  serviceCommand: 'node --max-semi-space-size=8 dist/server.js',
  plan: quickPlan,
  workloads: [
    workload('list-20', measured(9_500, 2, 8), 10_000, 19_000),
    workload('create', measured(800, 30, 60, 1), 1_000, 20_000),
    workload('first-page', measured(9_000, 2, 6), 9_500, 20_000),
    workload('deep-page', measured(8_000, 2.2, 7), 9_000, 20_000),
    workload('walk-20', measured(4_000, 5, 12), 4_200, 12_000),
    workload('walk-100', measured(2_000, 9, 20), 2_100, 9_000),
    workload('get', measured(10_000, 2, 5), 25_000, 30_000),
  ],
  client: [
    {
      operation: 'listPets',
      mode: 'sequential',
      concurrency: 1,
      rawMs: 1,
      libraryMs: 1.01,
      clientMs: 1.02,
      libraryRatio: 1.01,
      ratio: 1.02,
    },
  ],
  durability: { acknowledged: 10, expected: 1_010, onDisk: 1_010, lost: 0 },
  soak: undefined,
  deepLatency: {
    connections: 1,
    base: { p50: 0.2, p99: 0.4, mean: 0.21, non2xx: 0 },
    other: { p50: 0.22, p99: 0.5, mean: 0.22, non2xx: 0 },
    p50Ratio: 1.1,
    meanRatio: 1.05,
  },
  peakRss: 130 * mb,
  observabilityCost: [
    {
      variant: 'metrics on',
      workload: 'getPet',
      ratios: [1.02],
      median: 1.02,
      baseRate: 9000,
      headRate: 8900,
    },
    {
      variant: 'metrics on',
      workload: 'cold walk, limit=20 (500 pages)',
      ratios: [1.05],
      median: 1.05,
      baseRate: 5000,
      headRate: 4800,
    },
  ],
  contractPair: [
    {
      workload: 'durable create',
      ratios: [1.05, 1.08, 1.04],
      median: 1.05,
      baseRate: 5200,
      headRate: 5000,
    },
  ],
  durationSeconds: 42,
}

const squeezedReport = renderReport(result).replace(/ {2,}/g, ' ')

describe('renderReport', () => {
  const report = renderReport(result)
  const squeezed = report.replace(/ {2,}/g, ' ')

  it('renders one table row per workload with the three ratios and the non-2xx count', () => {
    expect(squeezed).toContain(
      '| label of list-20 | 1,000 pets | 9,500 | 10,000 | 19,000 | 10,000 | 0.95 | 0.50 | 0.95 | 2.00 | 8.00 | 0 (ceilings: 3) | 80.0 MB |',
    )
    expect(squeezed).toContain(
      '| label of create | 1,000 pets | 800 | 1,000 | 20,000 | 10,000 | 0.80 | 0.04 | 0.08 | 30.00 | 60.00 | 1 (ceilings: 3) |',
    )
  })

  it('reports the service paired against the contract ceiling, with the inverse of each ratio', () => {
    expect(report).toContain('## Paired against the contract ceiling')
    expect(squeezed).toContain(
      '| durable create | 1.050 | 1.050, 1.080, 1.040 | 5,200 | 5,000 | 0.95 |',
    )
  })

  it('describes the machine and the deep-page ratios', () => {
    expect(report).toContain('Test CPU, 2 cores, 8.0 GiB, Node v20.20.2')
    expect(report).toContain('**Measured:** commit abc1234.')
    expect(report).toContain('deep page p50 0.220 ms, **1.10x**')
    expect(report).toContain('32 connections, the table above): p50 1.10x')
    expect(report).toContain('**0 acknowledged pets lost**')
  })
})

describe('checkGoals', () => {
  const goals = Object.fromEntries(checkGoals(result).map((goal) => [goal.name, goal]))

  it('reports each observability setting on against off, and holds it to 3%', () => {
    expect(squeezedReport).toContain('| metrics on | getPet | 1.020 | 1.020 | 9,000 | 8,900 |')
    expect(goals['metrics on / off, CPU per request: getPet']).toMatchObject({
      measured: '1.02',
      met: true,
    })
    expect(goals['metrics on / off, CPU per request: cold walk, limit=20 (500 pages)']?.met).toBe(
      false,
    )
  })

  it('checks each target against the same run', () => {
    expect(goals['(a) list 20: service / data-path ceiling']?.met).toBe(true)
    expect(goals['(d) durable create: service / data-path ceiling']?.met).toBe(false)
    expect(goals['(c) deep page / first page, p50 latency at 1 connection']?.measured).toBe('1.10x')
    expect(goals['(c) the same at 32 connections']?.measured).toBe('1.10x')
    expect(goals['peak RSS of the service']?.met).toBe(false)
    expect(goals['(a) p99 latency at 32 connections']?.met).toBe(true)
    expect(goals['(f) client / openapi-fetch, listPets sequential']?.measured).toBe('1.01x')
    expect(goals['cold walk, limit=100: service / data-path ceiling']?.measured).toBe('0.95')
    expect(goals['(e) getPet: service / data-path ceiling']?.met).toBe(false)
  })

  it('checks the cold walk on 1,000,000 pets for throughput and p99', () => {
    const walk = Object.entries(goals).filter(([name]) => name.startsWith('cold walk, limit=20'))
    expect(walk.map(([, goal]) => [goal.measured, goal.met])).toEqual([['0.95', true]])
    expect(goals['the same, p99 latency at 32 connections']).toMatchObject({
      measured: '12.00 ms',
      met: false,
    })
  })

  it('checks every workload against the contract ceiling', () => {
    expect(goals['label of list-20: service / contract ceiling']).toMatchObject({
      goal: '>= 0.90',
      measured: '0.95',
      met: true,
    })
    expect(goals['label of create: service / contract ceiling']?.met).toBe(false)
    const contract = Object.keys(goals).filter((name) => name.endsWith('contract ceiling'))
    expect(contract).toHaveLength(result.workloads.length)
  })

  it('fails the error goal on any non-2xx from the service', () => {
    expect(goals['non-2xx responses and errors from the service']).toMatchObject({
      measured: '1',
      met: false,
    })
  })
})

describe('table', () => {
  it('pads every column to its widest cell, as the formatter does', () => {
    expect(table(['a', 'bb'], [['long cell', 'x']])).toBe(
      ['| a         | bb  |', '| --------- | --- |', '| long cell | x   |'].join('\n'),
    )
  })
})
