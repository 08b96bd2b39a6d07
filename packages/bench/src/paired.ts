/**
 * `pnpm --filter @petstore/bench paired --base=DIR [--head=DIR]`: two builds of the server package
 * compared as a pair, for effects too small for solo runs on a shared machine (ratios between
 * runs move by 0.1). Both builds start side by side on copies of one database and are loaded at
 * the same time; each one's CPU time per answered request is read from `/proc/<pid>/stat` over
 * every round, and the figure is the median of the rounds' head/base ratios. Machine load then
 * touches both alike; the same build against itself measures about 1.00 (rounds 0.93-1.04).
 */
import { readFileSync, rmSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type HttpCall, runLoad } from './load.js'
import { walkListing } from './probe.js'
import { copyDatabase, createBenchKey, seedPets } from './seed.js'
import { median } from './stats.js'
import { startService, type Target } from './targets.js'
import { bearer, knownPetId, newPetBody } from './workloads.js'

export interface PairedPlan {
  rounds: number
  seconds: number
  /** Connections per build. */
  connections: number
  pets: number
  /** Workloads to run (default all): `getPet`, `create`, `walk`. */
  only?: readonly PairedWorkload[]
}

export const pairedWorkloads = ['getPet', 'walk', 'create'] as const
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

async function pairedRounds(
  workload: string,
  targets: { base: Target; head: Target },
  calls: { base: readonly HttpCall[]; head: readonly HttpCall[] },
  plan: PairedPlan,
): Promise<PairedRow> {
  const ratios: number[] = []
  const rates = { base: [] as number[], head: [] as number[] }
  for (let round = 0; round < plan.rounds; round++) {
    const before = { base: cpuTicks(targets.base.pid), head: cpuTicks(targets.head.pid) }
    const load = (name: 'base' | 'head') =>
      runLoad({
        url: targets[name].url,
        calls: calls[name],
        rotate: calls[name].length > 1,
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
    ratios.push(perRequest('head', head.ok) / perRequest('base', base.ok))
    rates.base.push(base.requestsPerSecond)
    rates.head.push(head.requestsPerSecond)
  }
  return {
    workload,
    ratios,
    median: median(ratios),
    baseRate: median(rates.base),
    headRate: median(rates.head),
  }
}

/**
 * Runs the pair on getPet, on the cold walk of `plan.pets` pets at limit=20 and on durable
 * creates, in that order so that the walk reads the seeded pets only (or on `plan.only` of them).
 */
export async function measurePair(
  dirs: { base: string; head: string },
  plan: PairedPlan,
  log: (line: string) => void,
): Promise<PairedRow[]> {
  const work = await mkdtemp(join(tmpdir(), 'petstore-paired-'))
  const started: Target[] = []
  try {
    const dbs = { base: join(work, 'base.db'), head: join(work, 'head.db') }
    const key = await createBenchKey(join(dirs.base, 'dist', 'cli', 'main.js'), dbs.base)
    seedPets(dbs.base, { count: plan.pets })
    copyDatabase(dbs.base, dbs.head)
    const start = (name: 'base' | 'head') =>
      startService({ serverDir: dirs[name], dbPath: dbs[name], logPath: join(work, `${name}.log`) })
    const targets = { base: await start('base'), head: await start('head') }
    started.push(targets.base, targets.head)
    const headers = bearer(key)
    const only = new Set(plan.only ?? pairedWorkloads)
    const rows: PairedRow[] = []
    const run = async (
      name: string,
      calls: { base: readonly HttpCall[]; head: readonly HttpCall[] },
    ) => {
      log(`${name}: ${plan.rounds} rounds of ${plan.seconds} s`)
      rows.push(await pairedRounds(name, targets, calls, plan))
    }
    if (only.has('getPet')) {
      const getPet: HttpCall[] = [{ method: 'GET', path: `/v1/pets/${knownPetId}`, headers }]
      await run('getPet', { base: getPet, head: getPet })
    }
    if (only.has('walk')) {
      log(`walking ${plan.pets} pets at limit=20 on each build (each makes its own cursors)`)
      const walk = async (target: Target) =>
        (await walkListing(target.url, headers, 'limit=20')).map(
          (page): HttpCall => ({
            method: 'GET',
            path: `/v1/pets?limit=20${page.cursor === undefined ? '' : `&cursor=${encodeURIComponent(page.cursor)}`}`,
            headers,
          }),
        )
      const walks = { base: await walk(targets.base), head: await walk(targets.head) }
      await run(`cold walk, limit=20 (${walks.base.length} pages)`, walks)
    }
    if (only.has('create')) {
      const create: HttpCall[] = [
        {
          method: 'POST',
          path: '/v1/pets',
          headers: { ...headers, 'content-type': 'application/json' },
          body: newPetBody,
        },
      ]
      await run('durable create', { base: create, head: create })
    }
    return rows
  } finally {
    await Promise.all(started.map((target) => target.stop()))
    rmSync(work, { recursive: true, force: true })
  }
}

export function pairedTable(rows: readonly PairedRow[]): string {
  const lines = [
    '| workload | head/base CPU per request (median) | rounds | base req/s | head req/s |',
    '| --- | --- | --- | --- | --- |',
  ]
  for (const row of rows) {
    const rounds = row.ratios.map((ratio) => ratio.toFixed(3)).join(', ')
    lines.push(
      `| ${row.workload} | ${row.median.toFixed(3)} | ${rounds} | ${Math.round(row.baseRate)} | ${Math.round(row.headRate)} |`,
    )
  }
  return lines.join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const flags = new Map(
    process.argv.slice(2).map((arg) => {
      const [flag = '', value = ''] = arg.split('=')
      return [flag, value]
    }),
  )
  const base = flags.get('--base')
  if (base === undefined || base === '') {
    process.stderr.write(
      `usage: paired --base=DIR [--head=DIR] [--rounds=8] [--seconds=4] [--only=${pairedWorkloads.join(',')}]\n`,
    )
    process.exit(2)
  }
  const head = flags.get('--head') || fileURLToPath(new URL('../../server/', import.meta.url))
  const number = (flag: string, fallback: number) => Number(flags.get(flag) || fallback)
  const rows = await measurePair(
    { base: resolve(base), head: resolve(head) },
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
