/**
 * `pnpm --filter @petstore/bench paired --base=DIR [--head=DIR]`: two builds of the server package
 * compared as a pair, for effects too small for solo runs on a shared machine (ratios between
 * runs move by 0.1). Both builds start side by side on databases seeded alike (each made by its
 * own build's CLI, so a base from before a schema change works too) and are loaded at the same
 * time; each one's CPU time per answered request is read from `/proc/<pid>/stat` over
 * every round, and the figure is the median of the rounds' head/base ratios. Machine load then
 * touches both alike. Which build starts first matters (see `swapStartOrder`), so each workload
 * runs half its rounds in each start order; the same build against itself then measures about
 * 1.00.
 */
import { readFileSync, rmSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { commandFlags } from './args.js'
import { type HttpCall, type LoadOptions, Rotation, runLoad } from './load.js'
import { findDeepCursor, listingPath, walkCalls } from './probe.js'
import { createBenchKey, seedPets } from './seed.js'
import { median } from './stats.js'
import { startCeiling, startService, type Target } from './targets.js'
import { bearer, knownPetId, newPetBody } from './workloads.js'

export interface PairedPlan {
  rounds: number
  seconds: number
  /** Connections per build. */
  connections: number
  pets: number
  /** Workloads to run (default all, in `pairedWorkloads`' order). */
  only?: readonly PairedWorkload[]
}

/** In the order they run: reads first, so that they read the seeded pets only. */
export const pairedWorkloads = [
  'getPet',
  'firstPage',
  'deepPage',
  'walk',
  'walkAvailable',
  'create',
] as const
export type PairedWorkload = (typeof pairedWorkloads)[number]

export interface PairedRow {
  workload: string
  /** head / base CPU per request, per round. */
  ratios: number[]
  median: number
  /** Requests per second of each build, medians over the rounds. */
  baseRate: number
  headRate: number
}

/** CPU time (user + system) a process has used, in clock ticks. */
export function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return Number(fields[11]) + Number(fields[12])
}

/** One round of a pair: head/base CPU per request, and each build's requests per second. */
interface PairedRound {
  ratio: number
  baseRate: number
  headRate: number
}

async function pairedRounds(
  workload: string,
  targets: { base: Target; head: Target },
  calls: Readonly<Record<Build, LoadOptions['calls']>>,
  plan: PairedPlan,
  rounds: number,
): Promise<PairedRound[]> {
  const measured: PairedRound[] = []
  for (let round = 0; round < rounds; round++) {
    const before = { base: cpuTicks(targets.base.pid), head: cpuTicks(targets.head.pid) }
    const load = (name: 'base' | 'head') =>
      runLoad({
        url: targets[name].url,
        calls: calls[name],
        connections: plan.connections,
        seconds: plan.seconds,
      })
    const [base, head] = await Promise.all([load('base'), load('head')])
    if (base.non2xx + base.errors + head.non2xx + head.errors > 0) {
      throw new Error(
        `${workload}: non-2xx answers or errors (base ${base.non2xx}/${base.errors}, head ${head.non2xx}/${head.errors})`,
      )
    }
    const perRequest = (target: 'base' | 'head', ok: number) =>
      (cpuTicks(targets[target].pid) - before[target]) / ok
    measured.push({
      ratio: perRequest('head', head.ok) / perRequest('base', base.ok),
      baseRate: base.requestsPerSecond,
      headRate: head.requestsPerSecond,
    })
  }
  return measured
}

function pairedRow(workload: string, rounds: readonly PairedRound[]): PairedRow {
  const ratios = rounds.map((round) => round.ratio)
  return {
    workload,
    ratios,
    median: median(ratios),
    baseRate: median(rounds.map((round) => round.baseRate)),
    headRate: median(rounds.map((round) => round.headRate)),
  }
}

/** The pets `measurePair` seeds after `plan.pets`, all `sold`: how it finds the deep page. */
const soldTail = 100

type Build = 'base' | 'head'
const builds: readonly Build[] = ['base', 'head']

/**
 * Given as the base's directory, pairs the head with the contract ceiling (ceilings/contract.ts)
 * instead of another build: the bench's `service / contract` targets as a pair, which machine
 * load touches alike, where one full run's ratios move by 0.1. The ceiling answers every paired
 * workload (its own cursors for the walks) on a database made by the head's CLI.
 */
export const contractBase = 'contract'

/**
 * Runs the pair on `plan.only` of `pairedWorkloads`, in that order: getPet; the first page and
 * the page after pet `plan.pets`, both `limit=20` (repeated, so answered from the service's
 * page cache); the cold walks over every page at `limit=20` and `limit=20&status=available`;
 * durable creates. `env` adds variables to a build's service: the same build with and without a
 * setting is a pair too.
 */
export async function measurePair(
  dirs: Readonly<Record<Build, string>>,
  plan: PairedPlan,
  log: (line: string) => void,
  env: Partial<Record<Build, Readonly<Record<string, string>>>> = {},
): Promise<PairedRow[]> {
  const work = await mkdtemp(join(tmpdir(), 'petstore-paired-'))
  const started: Target[] = []
  try {
    const headers = {} as Record<Build, Readonly<Record<string, string>>>
    const targets = {} as Record<Build, Target>
    const dbPathOf = (name: Build) => join(work, `${name}.db`)
    const start = async (name: Build) => {
      const dbPath = dbPathOf(name)
      const logPath = join(work, `${name}.log`)
      targets[name] =
        dirs[name] === contractBase
          ? await startCeiling({ kind: 'contract', dbPath, logPath })
          : await startService({
              serverDir: dirs[name],
              dbPath,
              logPath,
              ...(env[name] === undefined ? {} : { env: env[name] }),
            })
      started.push(targets[name])
    }
    for (const name of builds) {
      // Each build's database is made and seeded by its own code; the ceiling's by the head's.
      const server = dirs[dirs[name] === contractBase ? 'head' : name]
      const key = await createBenchKey(join(server, 'dist', 'cli', 'main.js'), dbPathOf(name))
      await seedPets(server, dbPathOf(name), { count: plan.pets, soldTail })
      headers[name] = bearer(key)
    }
    let order: readonly Build[] = builds
    for (const name of order) await start(name)
    /**
     * The build started second read 0.95-0.96 of its own CPU per read against itself (1.01-1.04
     * started first), so each workload runs half its rounds in each order: both builds are
     * started again, the other one first, between the halves.
     */
    const swapStartOrder = async () => {
      await Promise.all(started.splice(0).map((target) => target.stop()))
      order = [...order].reverse()
      log(`both builds started again, ${order[0]} first`)
      for (const name of order) await start(name)
    }
    const only = new Set(plan.only ?? pairedWorkloads)
    const rows: PairedRow[] = []
    const each = async (call: (build: Build) => HttpCall[] | Promise<HttpCall[]>) => ({
      base: await call('base'),
      head: await call('head'),
    })
    const get =
      (path: string) =>
      (build: Build): HttpCall[] => [{ method: 'GET', path, headers: headers[build] }]
    const run = async (name: string, calls: Record<Build, LoadOptions['calls']>) => {
      log(`${name}: ${plan.rounds} rounds of ${plan.seconds} s, half in each start order`)
      const first = Math.ceil(plan.rounds / 2)
      const rounds = await pairedRounds(name, targets, calls, plan, first)
      if (plan.rounds > first) {
        await swapStartOrder()
        rounds.push(...(await pairedRounds(name, targets, calls, plan, plan.rounds - first)))
      }
      rows.push(pairedRow(name, rounds))
    }
    const walk = async (query: string) => {
      log(`walking ${query} on each build (each makes its own cursors)`)
      const walks = await each((build) => walkCalls(targets[build].url, headers[build], query))
      // Each build's pages in turn, each round on from where the build's last one stopped.
      await run(`cold walk, ${query} (${walks.base.length} pages)`, {
        base: new Rotation(walks.base),
        head: new Rotation(walks.head),
      })
    }
    if (only.has('getPet')) await run('getPet', await each(get(`/v1/pets/${knownPetId}`)))
    if (only.has('firstPage'))
      await run('first page, limit=20', await each(get('/v1/pets?limit=20')))
    if (only.has('deepPage')) {
      const deep = await each(async (build) => {
        const cursor = await findDeepCursor(build, targets[build].url, headers[build], plan.pets)
        return get(listingPath('limit=20', cursor))(build)
      })
      await run(`deep page, limit=20 after pet ${plan.pets}`, deep)
    }
    if (only.has('walk')) await walk('limit=20')
    if (only.has('walkAvailable')) await walk('limit=20&status=available')
    if (only.has('create')) {
      const create = await each((build) => [
        {
          method: 'POST',
          path: '/v1/pets',
          headers: { ...headers[build], 'content-type': 'application/json' },
          body: newPetBody,
        },
      ])
      await run('durable create', create)
    }
    return rows
  } finally {
    await Promise.all(started.map((target) => target.stop()))
    rmSync(work, { recursive: true, force: true })
  }
}

export function pairedTable(rows: readonly PairedRow[]): string {
  const lines = [
    '| workload | head/base CPU per request (median) | rounds | base req/s | head req/s | head/base req/s |',
    '| --- | --- | --- | --- | --- | --- |',
  ]
  for (const row of rows) {
    const rounds = row.ratios.map((ratio) => ratio.toFixed(3)).join(', ')
    lines.push(
      `| ${row.workload} | ${row.median.toFixed(3)} | ${rounds} | ${Math.round(row.baseRate)} | ${Math.round(row.headRate)} | ${(row.headRate / row.baseRate).toFixed(3)} |`,
    )
  }
  return lines.join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const flags = commandFlags('paired', [
    '--base',
    '--head',
    '--rounds',
    '--seconds',
    '--connections',
    '--pets',
    '--only',
  ])
  const base = flags.get('--base')
  if (base === undefined || base === '') {
    process.stderr.write(
      `usage: paired --base=DIR|${contractBase} [--head=DIR] [--rounds=8] [--seconds=4] [--only=${pairedWorkloads.join(',')}]\n`,
    )
    process.exit(2)
  }
  const head = flags.get('--head') || fileURLToPath(new URL('../../server/', import.meta.url))
  const number = (flag: string, fallback: number) => Number(flags.get(flag) || fallback)
  const rows = await measurePair(
    { base: base === contractBase ? base : resolve(base), head: resolve(head) },
    {
      rounds: number('--rounds', 8),
      seconds: number('--seconds', 4),
      connections: number('--connections', 16),
      pets: number('--pets', 100_000),
      only: onlyWorkloads(flags.get('--only')),
    },
    (line) => process.stderr.write(`paired: ${line}\n`),
  )
  console.log(pairedTable(rows))
}

function onlyWorkloads(list: string | undefined): PairedWorkload[] | undefined {
  if (list === undefined || list === '') return undefined
  return list.split(',').map((name) => {
    const workload = pairedWorkloads.find((known) => known === name)
    if (workload === undefined) {
      process.stderr.write(`paired: --only takes ${pairedWorkloads.join(', ')}; got ${name}\n`)
      process.exit(2)
    }
    return workload
  })
}
