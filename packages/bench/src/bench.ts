/**
 * The whole run: two phases (1,000 pets; 1,000,000 pets), each with a fresh SQLite file seeded
 * before the service starts, the service and both ceilings in their own processes, and the
 * workloads measured in alternating rounds. Phase one also measures the client, optionally the
 * soak, and ends with `kill -9` of the service and a count of the pets on disk.
 */
import { join } from 'node:path'
import { startCommand } from '@petstore/scripts/start-command'
import type { CeilingConfig } from './ceilings/child.js'
import type { CannedRoutes } from './ceilings/wire.js'
import { routeKey } from './ceilings/wire.js'
import { type ClientOverheadResult, measureClientOverhead } from './client-overhead.js'
import { type LatencyPair, measureLatencyPair } from './latency-pair.js'
import type { HttpCall } from './load.js'
import { describeMachine, describeRevision, type MachineInfo } from './machine.js'
import { type CostRow, measureObservabilityCost } from './observability-cost.js'
import { contractBase, measurePair, type PairedRow } from './paired.js'
import type { BenchPlan } from './plan.js'
import { capture, expectOk, findDeepCursor, walkListing } from './probe.js'
import { measureWorkload, type WorkloadResult } from './rounds.js'
import { readRss } from './rss.js'
import { copyDatabase, countPets, createBenchKey, seedPets } from './seed.js'
import { runSoak, type SoakResult, soakMix } from './soak.js'
import { startCeiling, startService, type Target, type TargetName } from './targets.js'
import {
  bearer,
  coldWalkWorkload,
  deepDataWorkloads,
  smallDataWorkloads,
  type Workload,
  type WorkloadId,
} from './workloads.js'

export interface BenchOptions {
  plan: BenchPlan
  /** The built server package: `dist/server.js` and `dist/cli/main.js` inside. */
  serverDir: string
  /** Scratch directory for databases and logs. */
  workDir: string
  soak: boolean
  /** When set, the service runs with `--cpu-prof` and writes its profiles here. */
  profileDir?: string
  log(line: string): void
}

export interface Durability {
  /** 201 responses the service sent. */
  acknowledged: number
  /** Pets that must be on disk: the seed plus every acknowledged create. */
  expected: number
  /** Pets found after `kill -9`. */
  onDisk: number
  lost: number
}

export interface BenchResult {
  machine: MachineInfo
  /** The commit of the measured server and client, when run from a git checkout. */
  revision: string | undefined
  /** The server package measured. */
  serverDir: string
  /** Its `start` script, which the bench runs the service with. */
  serviceCommand: string
  plan: BenchPlan
  workloads: WorkloadResult[]
  client: ClientOverheadResult[]
  durability: Durability | undefined
  soak: SoakResult | undefined
  /** Workload (c) at one connection: the first page (base) against the deep page (other). */
  deepLatency: LatencyPair | undefined
  /** Highest `VmHWM` of the service processes, bytes. */
  peakRss: number | undefined
  /** Each observability setting on against off, paired (observability-cost.ts). */
  observabilityCost: CostRow[]
  /** The service paired against the contract ceiling (paired.ts), CPU per request. */
  contractPair: PairedRow[]
  durationSeconds: number
}

export async function runBench(options: BenchOptions): Promise<BenchResult> {
  const started = Date.now()
  const machine = describeMachine()
  const revision = describeRevision(options.serverDir, ['.', '../client'])
  const small = await smallDataPhase(options)
  const walk = await walkPhase(options)
  const deep = await deepDataPhase(options)
  const observabilityCost = await measureObservabilityCost(
    options.serverDir,
    options.plan.observabilityCost,
    options.log,
  )
  options.log('the service paired against the contract ceiling')
  const contractPair = await measurePair(
    { base: contractBase, head: options.serverDir },
    options.plan.contractPair,
    (line) => options.log(`against the contract ceiling: ${line}`),
  )
  const peaks = [small.peakRss, walk.peakRss, deep.peakRss].filter((rss) => rss !== undefined)
  return {
    machine,
    revision,
    serverDir: options.serverDir,
    serviceCommand: startCommand(options.serverDir).script,
    plan: options.plan,
    workloads: [...small.workloads, ...walk.workloads, ...deep.workloads],
    client: small.client,
    durability: small.durability,
    soak: small.soak,
    deepLatency: deep.latency,
    peakRss: peaks.length === 0 ? undefined : Math.max(...peaks),
    observabilityCost,
    contractPair,
    durationSeconds: (Date.now() - started) / 1000,
  }
}

interface Phase {
  key: string
  service: Target
  dataPath: Target
  contract: Target
  /** Pets in the database before the service started. */
  seeded: number
}

/** Seeds a fresh database, copies it for the data-path and contract ceilings, starts all three. */
async function startPhase(
  options: BenchOptions,
  name: string,
  seed: { count: number; soldTail?: number },
): Promise<Phase> {
  const dbPath = join(options.workDir, `${name}.db`)
  const ceilingDb = join(options.workDir, `${name}-ceiling.db`)
  options.log(`${name}: seeding ${seed.count + (seed.soldTail ?? 0)} pets`)
  const key = await createBenchKey(join(options.serverDir, 'dist', 'cli', 'main.js'), dbPath)
  await seedPets(options.serverDir, dbPath, seed)
  copyDatabase(dbPath, ceilingDb)
  const contractDb = join(options.workDir, `${name}-contract.db`)
  copyDatabase(dbPath, contractDb)
  const profile = options.profileDir
  const service = await startService({
    serverDir: options.serverDir,
    dbPath,
    logPath: join(options.workDir, `${name}-service.log`),
    ...(profile === undefined
      ? {}
      : {
          nodeArgs: [
            '--cpu-prof',
            `--cpu-prof-dir=${profile}`,
            `--cpu-prof-name=service-${name}.cpuprofile`,
          ],
        }),
  })
  const dataPath = await startCeiling({ kind: 'data-path', dbPath: ceilingDb })
  const contract = await startCeiling({
    kind: 'contract',
    dbPath: contractDb,
    logPath: join(options.workDir, `${name}-contract.log`),
  })
  return { key, service, dataPath, contract, seeded: seed.count + (seed.soldTail ?? 0) }
}

/** Captures the service's answers to the workloads' calls and starts the wire ceiling on them. */
async function startWire(service: Target, workloads: readonly Workload[]): Promise<Target> {
  const routes: Record<string, CannedRoutes[string]> = {}
  for (const workload of workloads) {
    const call = workload.calls.wire
    routes[routeKey(call.method, call.path)] = await expectOk('service', service.url, call)
  }
  const config: CeilingConfig = { kind: 'wire', routes }
  return startCeiling(config)
}

/** Every target answers every call of every workload with a 2xx before any load starts. */
async function checkTargets(targets: readonly Target[], workloads: readonly Workload[]) {
  for (const workload of workloads) {
    for (const target of targets)
      await expectOk(target.name, target.url, workload.calls[target.name])
  }
}

async function measureAll(
  options: BenchOptions,
  workloads: readonly Workload[],
  targets: readonly Target[],
): Promise<WorkloadResult[]> {
  const results: WorkloadResult[] = []
  for (const workload of workloads) {
    options.log(`${workload.label} (${workload.data})`)
    results.push(await measureWorkload(workload, targets, options.plan.rounds, options.log))
  }
  return results
}

async function smallDataPhase(options: BenchOptions) {
  const { plan } = options
  const phase = await startPhase(options, 'small', { count: plan.smallPets })
  const { key, service, dataPath, contract } = phase
  const workloads = smallDataWorkloads(key)
  let wire: Target | undefined
  try {
    wire = await startWire(service, workloads)
    const targets = [service, wire, dataPath, contract]
    await checkTargets(targets, workloads)
    // The service has acknowledged two creates already: the wire's capture and the check.
    let acknowledged = 2
    const results = await measureAll(options, workloads, targets)
    acknowledged += results.find((result) => result.id === 'create')?.targets.service.created ?? 0

    options.log('(f) client against raw fetch')
    const client = await measureClientOverhead(service.url, key, plan.client)

    let soak: SoakResult | undefined
    if (options.soak) {
      const max = results.find((result) => result.id === 'list-20')?.targets.service
      const rate = Math.max(1, Math.round((max?.requestsPerSecond ?? 100) * plan.soak.loadFraction))
      options.log(`soak: ${plan.soak.seconds} s at ${rate} req/s, 10% creates`)
      const list = workloads.find((workload) => workload.id === 'list-20')?.calls.service
      const create = workloads.find((workload) => workload.id === 'create')?.calls.service
      soak = await runSoak(
        service.url,
        service.pid,
        soakMix(list as HttpCall, create as HttpCall),
        {
          seconds: plan.soak.seconds,
          baselineAfterSeconds: plan.soak.baselineAfterSeconds,
          requestsPerSecond: rate,
          connections: plan.rounds.connections,
        },
      )
      acknowledged += soak.load.statuses['201'] ?? 0
    }

    const peakRss = readRss(service.pid, 'VmHWM')
    let durability: Durability | undefined
    if (options.profileDir === undefined) {
      await service.kill()
      const onDisk = countPets(join(options.workDir, 'small.db'))
      const expected = phase.seeded + acknowledged
      durability = { acknowledged, expected, onDisk, lost: Math.max(0, expected - onDisk) }
      options.log(
        `durability: ${acknowledged} creates acknowledged, ${onDisk} pets on disk after kill -9`,
      )
    }
    return { workloads: results, client, soak, durability, peakRss }
  } finally {
    await Promise.all([service.stop(), dataPath.stop(), contract.stop(), wire?.stop()])
  }
}

/** Cold walks: every page of each listing, found through the service's next links. */
async function coldWalks(
  options: BenchOptions,
  service: Target,
  key: string,
  data: string,
  walks: readonly { id: WorkloadId; query: string }[],
): Promise<Workload[]> {
  const workloads: Workload[] = []
  for (const walk of walks) {
    options.log(`walking every page of ${walk.query}`)
    const pages = await walkListing(service.url, bearer(key), walk.query)
    workloads.push(coldWalkWorkload(key, { ...walk, data }, pages))
  }
  return workloads
}

/** The cold walk of a 100,000-pet table. */
async function walkPhase(options: BenchOptions) {
  const { plan } = options
  const phase = await startPhase(options, 'walk', { count: plan.walkPets })
  const { key, service, dataPath, contract } = phase
  let wire: Target | undefined
  try {
    const data = `${plan.walkPets.toLocaleString('en-US')} pets`
    const workloads = await coldWalks(options, service, key, data, [
      { id: 'walk-20-small', query: 'limit=20' },
    ])
    wire = await startWire(service, workloads)
    const targets = [service, wire, dataPath, contract]
    await checkTargets(targets, workloads)
    const results = await measureAll(options, workloads, targets)
    return { workloads: results, peakRss: readRss(service.pid, 'VmHWM') }
  } finally {
    await Promise.all([service.stop(), dataPath.stop(), contract.stop(), wire?.stop()])
  }
}

async function deepDataPhase(options: BenchOptions) {
  const { plan } = options
  const phase = await startPhase(options, 'deep', { count: plan.deepPets, soldTail: plan.soldTail })
  const { key, service, dataPath, contract } = phase
  let wire: Target | undefined
  try {
    const headers = bearer(key)
    const serviceCursor = await findDeepCursor('service', service.url, headers, plan.deepPets)
    const cursors: Record<TargetName, string> = {
      service: serviceCursor,
      wire: serviceCursor,
      'data-path': await findDeepCursor('data-path', dataPath.url, headers, plan.deepPets),
      contract: await findDeepCursor('contract', contract.url, headers, plan.deepPets),
    }
    const data = `${(plan.deepPets + plan.soldTail).toLocaleString('en-US')} pets`
    const workloads = [
      ...deepDataWorkloads(key, cursors),
      ...(await coldWalks(options, service, key, data, [
        { id: 'walk-20', query: 'limit=20' },
        { id: 'walk-100', query: 'limit=100' },
        { id: 'walk-20-available', query: 'limit=20&status=available' },
      ])),
    ]
    const deepPage = await capture(service.url, workloads[1]?.calls.service as HttpCall)
    const firstDeepId = (JSON.parse(deepPage.body) as { id: number }[])[0]?.id
    options.log(`deep cursor found: the deep page starts at pet ${firstDeepId}`)
    wire = await startWire(service, workloads)
    const targets = [service, wire, dataPath, contract]
    await checkTargets(targets, workloads)
    const results = await measureAll(options, workloads, targets)
    options.log('(c) first page against deep page at one connection')
    const [first, deep] = workloads as [Workload, Workload]
    const latency = await measureLatencyPair(
      service.url,
      first.calls.service,
      deep.calls.service,
      plan.deepLatency,
    )
    return { workloads: results, latency, peakRss: readRss(service.pid, 'VmHWM') }
  } finally {
    await Promise.all([service.stop(), dataPath.stop(), contract.stop(), wire?.stop()])
  }
}
