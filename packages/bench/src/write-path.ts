/**
 * `pnpm --filter @petstore/bench write-path [--server=DIR] [--rounds=3] [--seconds=5]
 * [--ceiling-with-service-flags] [--ceiling-on-fastify]`: where
 * the durable creates of w2 (`POST /v1/pets`, 32 connections) go, on the service and on the
 * contract ceiling. Both run with a write trace loaded into their process (write-trace.ts: the
 * commits they publish on the service's commit channel, with their size, when each began and
 * when it was durable, and each response, when its request arrived and when it was written,
 * from Node's HTTP channels); the targets are loaded in turn,
 * alternated, and the trace is read over the loaded windows only. Then each is loaded once more
 * with `strace -c -f -e trace=fsync,fdatasync` attached: syncs per commit, a count that does not
 * depend on how fast the machine is (strace slows the process; its rate is not used).
 *
 * A response is joined to the last commit that was durable before it was written: what a
 * group's responses wait for is that commit, and they are written in the turn that settles it.
 */
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startCommand } from '@petstore/scripts/start-command'
import { commandFlags } from './args.js'
import { type HttpCall, runLoad } from './load.js'
import { copyDatabase, createBenchKey, seedPets } from './seed.js'
import { percentile } from './stats.js'
import { startCeiling, startService, type Target } from './targets.js'
import { bearer, newPetBody } from './workloads.js'
import { readWriteTrace, type WriteTraceFile, writeTraceImport } from './write-trace.js'

export interface WritePathPlan {
  rounds: number
  seconds: number
  connections: number
  /** Seconds of load before the measured rounds (JIT, page cache). */
  warmup: number
  /**
   * Run the ceiling with the service's node flags (its `start` script's, e.g. the young
   * generation's cap) rather than Node's defaults: how much of the gap those settings make.
   */
  ceilingWithServiceFlags?: boolean
  /**
   * Serve the ceiling's work through Fastify (ceilings/fastify-contract.ts): what is left of the
   * gap is then the service's own steps, not its framework.
   */
  ceilingOnFastify?: boolean
}

export interface WritePathRow {
  target: 'service' | 'contract'
  createsPerSecond: number
  commitsPerSecond: number
  /** Creates per commit: mean and distribution. */
  groupMean: number
  groupP10: number
  groupP50: number
  groupP90: number
  groupMax: number
  /** Milliseconds a commit takes, from the group's first statement to durable (the fsync). */
  commitMs: number
  /** Share of the loaded time spent inside commits (the event loop is blocked there). */
  inCommit: number
  /** fsync + fdatasync calls per commit, from the strace round. */
  syncsPerCommit: number
  /** syncsPerCommit x commitsPerSecond. */
  syncsPerSecond: number
  /** CPU time per create, microseconds: the event loop's thread, and the process's others. */
  cpuMainUs: number
  cpuOtherUs: number
  /** The event loop thread's CPU time over the loaded time (1 = a core always busy). */
  mainBusy: number
  /** Milliseconds from a request's arrival to its commit being durable (p50, p90). */
  arrivalToCommit: [number, number]
  /** Milliseconds from that commit to the response written (p50, p90). */
  commitToResponse: [number, number]
}

export interface LoadedWindow {
  from: number
  to: number
  ok: number
  /** Clock ticks of CPU time over the window: the main thread's, and all threads'. */
  mainTicks: number
  allTicks: number
}

/** CPU time of `pid`'s main thread and of all its threads, in clock ticks. */
function threadTicks(pid: number): { main: number; all: number } {
  let all = 0
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      all += taskTicks(pid, Number(task))
    } catch {
      // The thread ended since the listing.
    }
  }
  return { main: taskTicks(pid, pid), all }
}

function taskTicks(pid: number, task: number): number {
  const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return Number(fields[11]) + Number(fields[12])
}

/** Clock ticks per second (USER_HZ): 100 on Linux. */
const ticksPerSecond = 100

/** The trace's figures over `windows` (epoch ms), the traced target's `syncsPerCommit` given. */
export function writePathRow(
  target: WritePathRow['target'],
  trace: WriteTraceFile,
  windows: readonly LoadedWindow[],
  syncsPerCommit: number,
): WritePathRow {
  const inside = (at: number) => windows.some((w) => at >= w.from && at < w.to)
  const seconds = windows.reduce((sum, w) => sum + (w.to - w.from), 0) / 1000
  const commits = trace.commits.filter(([, , committedAt]) => inside(committedAt))
  const sizes = commits.map(([size]) => size).sort((a, b) => a - b)
  const creates = sizes.reduce((sum, size) => sum + size, 0)
  const commitMs = commits.map(([, startedAt, committedAt]) => committedAt - startedAt)
  const durable = trace.commits.map(([, , committedAt]) => committedAt).sort((a, b) => a - b)
  const toCommit: number[] = []
  const toResponse: number[] = []
  for (const [arrivedAt, writtenAt] of trace.responses) {
    if (!inside(writtenAt)) continue
    const committedAt = lastAtOrBefore(durable, writtenAt)
    if (committedAt === undefined || committedAt < arrivedAt) continue
    toCommit.push(committedAt - arrivedAt)
    toResponse.push(writtenAt - committedAt)
  }
  const sorted = (values: number[]) => values.sort((a, b) => a - b)
  const p50p90 = (values: number[]): [number, number] => {
    const s = sorted(values)
    return [percentile(s, 50), percentile(s, 90)]
  }
  const commitsPerSecond = commits.length / seconds
  const ok = windows.reduce((sum, w) => sum + w.ok, 0)
  const ticks = (of: (w: LoadedWindow) => number) => windows.reduce((sum, w) => sum + of(w), 0)
  const perCreateUs = (tickCount: number) => ((tickCount / ticksPerSecond) * 1e6) / ok
  return {
    target,
    createsPerSecond: creates / seconds,
    commitsPerSecond,
    groupMean: creates / commits.length,
    groupP10: percentile(sizes, 10),
    groupP50: percentile(sizes, 50),
    groupP90: percentile(sizes, 90),
    groupMax: sizes.at(-1) ?? Number.NaN,
    commitMs: percentile(sorted(commitMs), 50),
    inCommit: commitMs.reduce((sum, ms) => sum + ms, 0) / 1000 / seconds,
    syncsPerCommit,
    syncsPerSecond: syncsPerCommit * commitsPerSecond,
    cpuMainUs: perCreateUs(ticks((w) => w.mainTicks)),
    cpuOtherUs: perCreateUs(ticks((w) => w.allTicks - w.mainTicks)),
    mainBusy: ticks((w) => w.mainTicks) / ticksPerSecond / seconds,
    arrivalToCommit: p50p90(toCommit),
    commitToResponse: p50p90(toResponse),
  }
}

/** The last of `sorted` (ascending) at or before `at`. */
function lastAtOrBefore(sorted: readonly number[], at: number): number | undefined {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const middle = (low + high) >> 1
    if ((sorted[middle] as number) <= at) low = middle + 1
    else high = middle
  }
  return low === 0 ? undefined : sorted[low - 1]
}

/** The calls of `syscalls` in `strace -c` output (its summary table). */
export function straceCalls(summary: string, syscalls: readonly string[]): number {
  let calls = 0
  for (const line of summary.split('\n')) {
    const columns = line.trim().split(/\s+/)
    const name = columns.at(-1) ?? ''
    // `% time  seconds  usecs/call  calls  [errors]  syscall`
    if (syscalls.includes(name) && /^[0-9.]+$/.test(columns[0] ?? '')) {
      calls += Number(columns[3])
    }
  }
  return calls
}

/** Runs `load` with strace counting `pid`'s syncs; resolves with the count. */
async function countSyncs(pid: number, outPath: string, load: () => Promise<void>) {
  const strace = spawn(
    'strace',
    ['-c', '-f', '-e', 'trace=fsync,fdatasync', '-o', outPath, '-p', String(pid)],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  const exited = new Promise<number | null>((done) => strace.once('exit', done))
  // Attached once strace says so (per thread).
  await new Promise<void>((attached, failed) => {
    strace.stderr.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('attached')) attached()
    })
    strace.once('error', failed)
    strace.once('exit', (code) => failed(new Error(`strace exited with ${code} before attaching`)))
  })
  await new Promise((wait) => setTimeout(wait, 200))
  await load()
  strace.kill('SIGINT')
  await exited
  return straceCalls(readFileSync(outPath, 'utf8'), ['fsync', 'fdatasync'])
}

const targetNames = ['service', 'contract'] as const

/** Seeds one database (copied for the ceiling), starts both traced, and measures them. */
export async function measureWritePath(
  serverDir: string,
  plan: WritePathPlan,
  log: (line: string) => void,
): Promise<WritePathRow[]> {
  const work = await mkdtemp(join(tmpdir(), 'petstore-write-path-'))
  const started: Target[] = []
  try {
    const dbPath = join(work, 'service.db')
    const key = await createBenchKey(join(serverDir, 'dist', 'cli', 'main.js'), dbPath)
    await seedPets(serverDir, dbPath, { count: 1000 })
    copyDatabase(dbPath, join(work, 'contract.db'))
    const traces = { service: join(work, 'service.trace'), contract: join(work, 'contract.trace') }
    const targets = {
      service: await startService({
        serverDir,
        dbPath,
        logPath: join(work, 'service.log'),
        nodeArgs: writeTraceImport(traces.service),
      }),
      contract: await startCeiling(
        {
          kind: 'contract',
          dbPath: join(work, 'contract.db'),
          logPath: join(work, 'contract.log'),
          fastify: plan.ceilingOnFastify ?? false,
        },
        [
          ...(plan.ceilingWithServiceFlags ? startCommand(serverDir).nodeArgs : []),
          ...writeTraceImport(traces.contract),
        ],
      ),
    }
    started.push(targets.service, targets.contract)
    const call: HttpCall = {
      method: 'POST',
      path: '/v1/pets',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      body: newPetBody,
    }
    const load = async (name: (typeof targetNames)[number], seconds: number) => {
      const pid = targets[name].pid
      const before = threadTicks(pid)
      const from = performance.timeOrigin + performance.now()
      const result = await runLoad({
        url: targets[name].url,
        calls: [call],
        connections: plan.connections,
        seconds,
      })
      const to = performance.timeOrigin + performance.now()
      if (result.non2xx + result.errors > 0) {
        throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`)
      }
      const after = threadTicks(pid)
      return {
        from,
        to,
        ok: result.ok,
        mainTicks: after.main - before.main,
        allTicks: after.all - before.all,
      }
    }
    log(`warming up, ${plan.warmup} s each`)
    for (const name of targetNames) await load(name, plan.warmup)
    const windows = { service: [] as LoadedWindow[], contract: [] as LoadedWindow[] }
    for (let round = 0; round < plan.rounds; round++) {
      for (const name of round % 2 === 0 ? targetNames : [...targetNames].reverse()) {
        log(`round ${round + 1}/${plan.rounds}: ${name}, ${plan.seconds} s`)
        windows[name].push(await load(name, plan.seconds))
      }
    }
    const straced = { service: [] as LoadedWindow[], contract: [] as LoadedWindow[] }
    const syncs = { service: 0, contract: 0 }
    for (const name of targetNames) {
      log(`${name}: counting syncs under strace, ${plan.seconds} s`)
      syncs[name] = await countSyncs(targets[name].pid, join(work, `${name}.strace`), async () => {
        straced[name].push(await load(name, plan.seconds))
      })
    }
    await Promise.all(started.splice(0).map((target) => target.stop()))
    return targetNames.map((name) => {
      const trace = readWriteTrace(traces[name], name)
      const commitsUnderStrace = writePathRow(name, trace, straced[name], 0)
      const syncsPerCommit =
        syncs[name] / (commitsUnderStrace.commitsPerSecond * seconds(straced[name]))
      return writePathRow(name, trace, windows[name], syncsPerCommit)
    })
  } finally {
    await Promise.all(started.map((target) => target.stop()))
    rmSync(work, { recursive: true, force: true })
  }
}

const seconds = (windows: readonly LoadedWindow[]) =>
  windows.reduce((sum, w) => sum + (w.to - w.from), 0) / 1000

/** `ceiling` names the second column: which ceiling was measured. */
export function writePathTable(
  rows: readonly WritePathRow[],
  ceiling = 'contract ceiling',
): string {
  const [service, contract] = rows as [WritePathRow, WritePathRow]
  const ms = ([p50, p90]: [number, number]) => `${p50.toFixed(2)} / ${p90.toFixed(2)}`
  const line = (measure: string, of: (row: WritePathRow) => string, ratio?: number) =>
    `| ${measure} | ${of(service)} | ${of(contract)} | ${ratio === undefined ? '' : ratio.toFixed(2)} |`
  const ratio = (of: (row: WritePathRow) => number) => of(service) / of(contract)
  return [
    `| w2, 32 connections | service | ${ceiling} | service / ceiling |`,
    '| --- | --- | --- | --- |',
    line(
      'creates/s',
      (row) => row.createsPerSecond.toFixed(0),
      ratio((row) => row.createsPerSecond),
    ),
    line(
      'commits/s',
      (row) => row.commitsPerSecond.toFixed(0),
      ratio((row) => row.commitsPerSecond),
    ),
    line(
      'creates per commit: mean (p10 / p50 / p90, max)',
      (row) =>
        `${row.groupMean.toFixed(1)} (${row.groupP10} / ${row.groupP50} / ${row.groupP90}, ${row.groupMax})`,
      ratio((row) => row.groupMean),
    ),
    line('fsync + fdatasync per commit (strace)', (row) => row.syncsPerCommit.toFixed(2)),
    line(
      'fsync + fdatasync per second',
      (row) => row.syncsPerSecond.toFixed(0),
      ratio((row) => row.syncsPerSecond),
    ),
    line(
      'CPU per create, µs: event loop thread + other threads',
      (row) => `${row.cpuMainUs.toFixed(0)} + ${row.cpuOtherUs.toFixed(0)}`,
      ratio((row) => row.cpuMainUs + row.cpuOtherUs),
    ),
    line(
      'event loop thread busy (share of a core)',
      (row) => `${(row.mainBusy * 100).toFixed(0)}%`,
    ),
    line('commit, begin to durable, ms (p50)', (row) => row.commitMs.toFixed(2)),
    line('share of time inside commits', (row) => `${(row.inCommit * 100).toFixed(0)}%`),
    line('arrival to commit durable, ms (p50 / p90)', (row) => ms(row.arrivalToCommit)),
    line('commit to response written, ms (p50 / p90)', (row) => ms(row.commitToResponse)),
  ].join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const flags = commandFlags('write-path', [
    '--server',
    '--rounds',
    '--seconds',
    '--connections',
    '--warmup',
    '--ceiling-with-service-flags',
    '--ceiling-on-fastify',
  ])
  const number = (flag: string, fallback: number) => Number(flags.get(flag) || fallback)
  const serverDir =
    flags.get('--server') || fileURLToPath(new URL('../../server/', import.meta.url))
  const plan: WritePathPlan = {
    rounds: number('--rounds', 3),
    seconds: number('--seconds', 5),
    connections: number('--connections', 32),
    warmup: number('--warmup', 3),
    ceilingWithServiceFlags: flags.has('--ceiling-with-service-flags'),
    ceilingOnFastify: flags.has('--ceiling-on-fastify'),
  }
  const rows = await measureWritePath(resolve(serverDir), plan, (line) =>
    process.stderr.write(`write-path: ${line}\n`),
  )
  console.log(
    writePathTable(
      rows,
      plan.ceilingOnFastify ? 'contract ceiling on Fastify' : 'contract ceiling',
    ),
  )
}
