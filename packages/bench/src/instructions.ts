/**
 * `pnpm --filter @petstore/bench instructions [--server=DIR] [--base=contract|fastify|DIR]
 * [--workload=create|getPet|walk] [--requests=3000] [--windows=5] [--processes=2]`: the
 * instructions one request costs on the service and on a base, counted by callgrind
 * (callgrind.ts), and where each side's go. The base is the contract ceiling (bare `node:http`),
 * the same work on Fastify (ceilings/fastify-contract.ts), or another build of the server
 * package: a pair of builds whose difference does not move with the machine.
 *
 * Why counts: on this machine a CPU pair moved by 4-5% with which build started first, and the
 * speed changed by 2x in phases of minutes (BENCHMARKS.md, "How to measure"). The same build and
 * load count within a few percent from window to window however fast the machine is that
 * minute. Not whatever else runs: how requests batch (creates per commit, requests per turn)
 * changes the count, and a saturated machine changes the batching.
 *
 * Each target runs under callgrind with collection off. After a warm-up of four times `requests`
 * (the JIT's tiers: twice was not enough), each window counts `requests` calls sent over 32
 * connections. The first window is left out (it reads 1.3-1.6x the others while V8 still
 * optimizes under the counter); the figure is the median of the others, and the split by origin
 * is of the window nearest it.
 *
 * Each target is counted in `processes` processes of its own, and the one with the lowest count
 * stands for it. Under callgrind a process now and then settles in a state that costs the same
 * code about 13% more for its whole life: in three contract ceilings of twelve counted, every
 * `process.nextTick` went through V8's runtime and migrated its object from a deprecated map
 * (none of nine services did). No process run without valgrind was seen in that state
 * (BENCHMARKS.md, "How to measure"), so the lowest count is the one the timed runs see, and the
 * others are listed beside it.
 */
import { rmSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { commandFlags } from './args.js'
import {
  type Counted,
  callgrindLauncher,
  countWindow,
  type Origin,
  originOf,
  origins,
  perfMapOf,
  readWindow,
  type WindowCounts,
} from './callgrind.js'
import { type LoadOptions, Rotation, runLoad } from './load.js'
import { walkCalls } from './probe.js'
import { copyDatabase, createBenchKey, seedPets } from './seed.js'
import { median } from './stats.js'
import { startCeiling, startService, type Target } from './targets.js'
import { bearer, knownPetId, newPetBody } from './workloads.js'

/** The contract ceiling, on bare `node:http` or on Fastify, or a server package's directory. */
export type InstructionsBase = 'contract' | 'fastify' | { serverDir: string }

export const instructionsWorkloads = ['create', 'getPet', 'walk'] as const

export interface InstructionsPlan {
  /** A durable create, getPet, or a cold walk over `limit=20` pages (`walkPets` pets). */
  workload: (typeof instructionsWorkloads)[number]
  base: InstructionsBase
  /** Requests per window. */
  requests: number
  /** Windows per target, the first left out. */
  windows: number
  /** Processes per target, each counted alike; the one with the lowest count stands. */
  processes: number
}

/** One target's count: per request, each window's, and the split of the median window. */
export interface InstructionsRow {
  target: 'service' | 'base'
  perRequest: number
  windows: number[]
  /**
   * The same without the compilers' instructions: V8 still optimizes and deoptimizes now and
   * then after the warm-up, by several thousand instructions per request in one window and
   * none in the next, which is noise when two builds are compared.
   */
  steadyPerRequest: number
  steadyWindows: number[]
  byOrigin: Map<Origin, number>
  /** Instructions per request by function, of the same window as `byOrigin`. */
  byFunction: Map<string, number>
  /** `steadyPerRequest` of each process counted, in the order they ran. */
  processes: number[]
}

/** One process's count: a row before the target's processes are compared. */
type CountedProcess = Omit<InstructionsRow, 'processes'>

/** The process with the lowest count without the compilers, with every process's count. */
export function leanest(counts: readonly CountedProcess[]): InstructionsRow {
  const lowest = counts.reduce((best, count) =>
    count.steadyPerRequest < best.steadyPerRequest ? count : best,
  )
  return { ...lowest, processes: counts.map((count) => count.steadyPerRequest) }
}

const connections = 32
/**
 * 5,000 pages of 20: more than the 4,096 page keys the service remembers, so no walked page is
 * asked for twice while remembered and none is answered from its cache (store/cache.ts).
 */
const walkPets = 100_000
const walkQuery = 'limit=20'

/**
 * The load on a started target. A walk uses the target's own cursors, in one rotation for all
 * the target's windows: each goes on from where the last stopped, so none repeats the pages of
 * the one before (the service would answer them from its cache).
 */
async function calls(
  plan: InstructionsPlan,
  apiKey: string,
  url: string,
): Promise<LoadOptions['calls']> {
  const headers = bearer(apiKey)
  if (plan.workload === 'walk') return new Rotation(await walkCalls(url, headers, walkQuery))
  if (plan.workload === 'getPet') {
    return [{ method: 'GET', path: `/v1/pets/${knownPetId}`, headers }]
  }
  const json = { ...headers, 'content-type': 'application/json' }
  return [{ method: 'POST', path: '/v1/pets', headers: json, body: newPetBody }]
}

export async function measureInstructions(
  serverDir: string,
  plan: InstructionsPlan,
  log: (line: string) => void,
): Promise<InstructionsRow[]> {
  const work = await mkdtemp(join(tmpdir(), 'petstore-instructions-'))
  const started: Target[] = []
  try {
    const dbPath = join(work, 'pets.db')
    const apiKey = await createBenchKey(join(serverDir, 'dist', 'cli', 'main.js'), dbPath)
    await seedPets(serverDir, dbPath, { count: plan.workload === 'walk' ? walkPets : 1_000 })
    const launcher = callgrindLauncher(work)
    const { base } = plan
    const rows: InstructionsRow[] = []
    for (const name of ['service', 'base'] as const) {
      // The server package this target runs; none for a ceiling.
      const ran =
        name === 'service' ? serverDir : typeof base === 'object' ? base.serverDir : undefined
      const counts: CountedProcess[] = []
      for (let n = 1; n <= plan.processes; n++) {
        log(`${name}: starting process ${n}/${plan.processes} under callgrind`)
        // Each process on a copy of the seeded file, so none sees another's creates.
        const processDb = join(work, `${name}-${n}.db`)
        copyDatabase(dbPath, processDb)
        const target =
          ran === undefined
            ? await startCeiling(
                {
                  kind: 'contract',
                  dbPath: processDb,
                  logPath: join(work, `${name}-${n}.log`),
                  fastify: base === 'fastify',
                },
                [],
                launcher,
              )
            : await startService({
                serverDir: ran,
                dbPath: processDb,
                logPath: join(work, `${name}-${n}.log`),
                launcher,
              })
        started.push(target)
        // startService binds the service to HOST=127.0.0.1; a ceiling has this process's HOST.
        const counted: Counted = {
          pid: target.pid,
          host: ran === undefined ? process.env.HOST : '127.0.0.1',
          dir: work,
        }
        try {
          const load = await calls(plan, apiKey, target.url)
          counts.push(await countTarget(name, target, counted, ran, load, plan, log))
        } finally {
          await target.stop()
          rmSync(perfMapOf(target.pid), { force: true })
        }
      }
      rows.push(leanest(counts))
    }
    return rows
  } finally {
    await Promise.all(started.map((target) => target.stop()))
    rmSync(work, { recursive: true, force: true })
  }
}

async function countTarget(
  name: InstructionsRow['target'],
  target: Target,
  counted: Counted,
  serverDir: string | undefined,
  load: LoadOptions['calls'],
  plan: InstructionsPlan,
  log: (line: string) => void,
): Promise<CountedProcess> {
  const send = async (requests: number) => {
    const result = await runLoad({
      url: target.url,
      calls: load,
      connections,
      seconds: 0,
      requests,
      // Under valgrind on a busy machine (CI runs the packages' tests side by side) a response
      // can take longer than autocannon's 10 s: seen as 7 of 100 creates timed out.
      timeoutSeconds: 300,
    })
    if (result.ok !== requests) {
      throw new Error(
        `${name}: ${result.ok} of ${requests} requests answered 2xx (${result.non2xx} other statuses, ${result.errors} errors and timeouts)`,
      )
    }
  }
  log(`${name}: warming up, ${plan.requests * 4} requests`)
  await send(plan.requests * 4)
  const counts: WindowCounts[] = []
  for (let window = 0; window < plan.windows; window++) {
    const dump = await countWindow(counted, () => send(plan.requests))
    counts.push(await readWindow(dump, perfMapOf(target.pid), serverDir))
    const perRequest = (counts.at(-1)?.total ?? 0) / plan.requests
    log(`${name}: window ${window + 1}/${plan.windows}, ${perRequest.toFixed(0)} per request`)
  }
  const kept = counts.slice(1)
  const windows = kept.map((c) => c.total / plan.requests)
  const steadyWindows = kept.map(
    (c) => (c.total - (originsOf(c.byFunction).get('compilers') ?? 0)) / plan.requests,
  )
  const perRequest = median(windows)
  const nearest = kept.reduce((best, c) =>
    Math.abs(c.total / plan.requests - perRequest) <
    Math.abs(best.total / plan.requests - perRequest)
      ? c
      : best,
  )
  const byFunction = new Map(
    [...nearest.byFunction].map(([fn, count]) => [fn, count / plan.requests]),
  )
  return {
    target: name,
    perRequest,
    windows,
    steadyPerRequest: median(steadyWindows),
    steadyWindows,
    byOrigin: originsOf(byFunction),
    byFunction,
  }
}

function originsOf(byFunction: ReadonlyMap<string, number>): Map<Origin, number> {
  const byOrigin = new Map<Origin, number>()
  for (const [fn, count] of byFunction) {
    const origin = originOf(fn)
    byOrigin.set(origin, (byOrigin.get(origin) ?? 0) + count)
  }
  return byOrigin
}

/** What the table calls the base. */
export function baseName(base: InstructionsBase): string {
  if (base === 'contract') return 'contract ceiling'
  if (base === 'fastify') return 'contract ceiling on Fastify'
  return `base (${base.serverDir})`
}

/** The two rows as Markdown: totals, then instructions per request by origin, then functions. */
export function instructionsTable(
  rows: readonly InstructionsRow[],
  baseTitle: string,
  functions = 15,
): string {
  const [service, base] = rows as [InstructionsRow, InstructionsRow]
  const count = (n: number) => Math.round(n).toLocaleString('en-US')
  const signed = (n: number) => (n >= 0 ? '+' : '-') + count(Math.abs(n))
  const medians = (of: (row: InstructionsRow) => number, title: string) =>
    `| ${title} (service / base: ${(of(service) / of(base)).toFixed(3)}) | ${count(of(service))} | ${count(of(base))} | ${signed(of(service) - of(base))} |`
  const each = (of: (row: InstructionsRow) => number[], title: string) =>
    `| ${title} | ${of(service).map(count).join(', ')} | ${of(base).map(count).join(', ')} | |`
  const lines = [
    `| instructions per request | service | ${baseTitle} | service - base |`,
    '| --- | --- | --- | --- |',
    medians((row) => row.perRequest, 'median of the windows'),
    each((row) => row.windows, 'each window'),
    medians((row) => row.steadyPerRequest, 'the same without the compilers'),
    each((row) => row.steadyWindows, 'each window without the compilers'),
    each((row) => row.processes, 'each process without the compilers (the lowest stands)'),
    '',
    `| by origin, the window nearest the median | service | ${baseTitle} | service - base |`,
    '| --- | --- | --- | --- |',
  ]
  const of = (row: InstructionsRow, origin: Origin) => row.byOrigin.get(origin) ?? 0
  const byGap = [...origins].sort(
    (a, b) => of(service, b) - of(base, b) - (of(service, a) - of(base, a)),
  )
  for (const origin of byGap) {
    if (of(service, origin) === 0 && of(base, origin) === 0) continue
    lines.push(
      `| ${origin} | ${count(of(service, origin))} | ${count(of(base, origin))} | ${signed(of(service, origin) - of(base, origin))} |`,
    )
  }
  const names = new Set([...service.byFunction.keys(), ...base.byFunction.keys()])
  const gap = (fn: string) => (service.byFunction.get(fn) ?? 0) - (base.byFunction.get(fn) ?? 0)
  const byGapDown = [...names].sort((a, b) => gap(b) - gap(a))
  const listed = (title: string, chosen: string[]) => {
    lines.push(
      '',
      `| ${title} | service | ${baseTitle} | service - base |`,
      '| --- | --- | --- | --- |',
    )
    for (const fn of chosen) {
      lines.push(
        `| \`${fn.replaceAll('|', '\\|')}\` | ${count(service.byFunction.get(fn) ?? 0)} | ${count(base.byFunction.get(fn) ?? 0)} | ${signed(gap(fn))} |`,
      )
    }
  }
  listed(
    `the ${functions} functions that cost the service most over the base (self)`,
    byGapDown.slice(0, functions),
  )
  // A build compared with another: what the change saved is the other end of the list.
  listed(
    `the ${functions} that cost the base most over the service`,
    byGapDown.slice(-functions).reverse(),
  )
  return lines.join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const flags = commandFlags('instructions', [
    '--server',
    '--base',
    '--workload',
    '--requests',
    '--windows',
    '--processes',
  ])
  const number = (flag: string, fallback: number) => Number(flags.get(flag) || fallback)
  const serverDir =
    flags.get('--server') || fileURLToPath(new URL('../../server/', import.meta.url))
  const base = flags.get('--base') || 'contract'
  const workload = flags.get('--workload') || 'create'
  if (!instructionsWorkloads.some((known) => known === workload)) {
    throw new Error(`--workload=${workload}: not one of ${instructionsWorkloads.join(', ')}`)
  }
  const plan: InstructionsPlan = {
    workload: workload as InstructionsPlan['workload'],
    base: base === 'contract' || base === 'fastify' ? base : { serverDir: resolve(base) },
    requests: number('--requests', 3000),
    windows: number('--windows', 5),
    processes: number('--processes', 2),
  }
  const rows = await measureInstructions(resolve(serverDir), plan, (line) =>
    process.stderr.write(`instructions: ${line}\n`),
  )
  console.log(instructionsTable(rows, baseName(plan.base)))
}
