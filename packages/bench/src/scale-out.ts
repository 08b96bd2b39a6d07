/**
 * `pnpm bench --scale-out`: the service on PostgreSQL and Redis (exact shared limits on), as one
 * instance, as two instances sharing the load, and as one instance of two workers
 * (`PETSTORE_WORKERS=2`, one port), against the PostgreSQL data-path ceiling
 * (bare node:http + the same driver and query or insert). Each figure is the median of
 * alternating rounds at 32 connections in all (two instances: 16 each, their req/s added;
 * two workers: all 32 on the one port).
 * With `--soak`, two instances then take 60 s of 90% lists and 10% creates at 70% of their
 * measured list maximum, and must answer every request with a 2xx.
 *
 * PostgreSQL is the one at DATABASE_URL (default: the test database on 127.0.0.1), in a fresh
 * schema dropped afterwards; Redis is a private redis-server on a free port (REDIS_URL when
 * redis-server is not installed).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { freePort } from '@petstore/scripts/free-port'
import pg from 'pg'
import { type HttpCall, type LoadResult, runLoad } from './load.js'
import { table } from './report.js'
import { createBenchKey, seedPostgresPets } from './seed.js'
import { soakMix } from './soak.js'
import { median } from './stats.js'
import { startCeiling, startService, type Target } from './targets.js'
import { bearer, newPetBody } from './workloads.js'

export interface ScaleOutOptions {
  serverDir: string
  workDir: string
  quick: boolean
  soak: boolean
  log(line: string): void
}

type Setup = 'ceiling' | 'one instance' | 'two instances' | 'two workers'
const setups: readonly Setup[] = ['ceiling', 'one instance', 'two instances', 'two workers']

export interface ScaleOutFigure {
  requestsPerSecond: number
  p99: number
  /** Non-2xx responses and errors over every run of this setup. */
  failures: number
}

export interface ScaleOutWorkload {
  label: string
  figures: Record<Setup, ScaleOutFigure>
}

export interface ScaleOutResult {
  rounds: number
  seconds: number
  poolSize: number
  workloads: ScaleOutWorkload[]
  soak: { seconds: number; rate: number; load: LoadResult } | undefined
}

const poolSize = 10
const connections = 32
/** Ratio of the ceiling the issue asks for, for list and create. */
export const scaleOutTarget = 0.8

export async function runScaleOutBench(options: ScaleOutOptions): Promise<ScaleOutResult> {
  const rounds = options.quick ? 1 : 3
  const seconds = options.quick ? 2 : 4
  const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
  const schema = `bench_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: base })
  await admin.connect()
  await admin.query(`CREATE SCHEMA ${schema}`)
  const url = new URL(base)
  url.searchParams.set('options', `-c search_path=${schema}`)
  const databaseUrl = url.toString()
  const redis = await startRedis()
  const targets: Target[] = []
  try {
    options.log(`scale-out: schema ${schema}, Redis ${redis.url}; seeding 1,000 pets`)
    const env = { DATABASE_URL: databaseUrl, REDIS_URL: redis.url }
    const cliJs = join(options.serverDir, 'dist', 'cli', 'main.js')
    const key = await createBenchKey(cliJs, join(options.workDir, 'unused.db'), env)
    await seedPostgresPets(options.serverDir, { url: base, size: 2, schema }, { count: 1000 })
    const logPath = (name: string) => join(options.workDir, `scale-out-${name}.log`)
    const start = (name: string, extra: Record<string, string> = {}) =>
      startService({
        serverDir: options.serverDir,
        dbPath: join(options.workDir, 'unused.db'),
        logPath: logPath(name),
        env: { ...env, ...extra },
      })
    const a = await start('a')
    const b = await start('b')
    const workers = await start('workers', { PETSTORE_WORKERS: '2' })
    targets.push(a, b, workers)
    // Healthy as soon as one worker listens; measure once both do.
    await waitForLine(logPath('workers'), '2 workers listening on')
    const ceiling = await startCeiling({ kind: 'data-path', databaseUrl, poolSize })
    targets.push(ceiling)

    const headers = bearer(key)
    const list: HttpCall = { method: 'GET', path: '/v1/pets?limit=20', headers }
    const create: HttpCall = {
      method: 'POST',
      path: '/v1/pets',
      headers: { ...headers, 'content-type': 'application/json' },
      body: newPetBody,
    }
    const drive = (setup: Setup, calls: readonly HttpCall[], duration: number) => {
      if (setup === 'ceiling') return loadOn([ceiling], calls, duration)
      if (setup === 'two workers') return loadOn([workers], calls, duration)
      return loadOn(setup === 'one instance' ? [a] : [a, b], calls, duration)
    }
    const workloads: ScaleOutWorkload[] = []
    for (const [label, call] of [
      ['GET /v1/pets?limit=20', list],
      ['POST /v1/pets', create],
    ] as const) {
      const runs = new Map<Setup, LoadResult[]>(setups.map((setup) => [setup, []]))
      for (const setup of setups) runs.get(setup)?.push(await drive(setup, [call], 1))
      const measured = new Map<Setup, LoadResult[]>(setups.map((setup) => [setup, []]))
      for (let round = 0; round < rounds; round++) {
        for (let i = 0; i < setups.length; i++) {
          const setup = setups[(i + round) % setups.length] as Setup
          const result = await drive(setup, [call], seconds)
          measured.get(setup)?.push(result)
          runs.get(setup)?.push(result)
          options.log(
            `  ${label} round ${round + 1}/${rounds} ${setup}: ${Math.round(result.requestsPerSecond)} req/s`,
          )
        }
      }
      const figures = {} as Record<Setup, ScaleOutFigure>
      for (const setup of setups) {
        const own = measured.get(setup) ?? []
        figures[setup] = {
          requestsPerSecond: median(own.map((run) => run.requestsPerSecond)),
          p99: median(own.map((run) => run.p99)),
          failures: (runs.get(setup) ?? []).reduce((n, run) => n + run.non2xx + run.errors, 0),
        }
      }
      workloads.push({ label, figures })
    }

    let soak: ScaleOutResult['soak']
    if (options.soak) {
      const listMax = workloads[0]?.figures['two instances'].requestsPerSecond ?? 0
      const rate = Math.max(1, Math.round(listMax * 0.7))
      const soakSeconds = options.quick ? 5 : 60
      options.log(`scale-out soak: ${soakSeconds} s at ${rate} req/s over two instances`)
      const load = await loadOnAt([a, b], soakMix(list, create), soakSeconds, rate)
      soak = { seconds: soakSeconds, rate, load }
    }
    return { rounds, seconds, poolSize, workloads, soak }
  } finally {
    await Promise.all(targets.map((target) => target.stop()))
    redis.stop()
    await admin.query(`DROP SCHEMA ${schema} CASCADE`).catch(() => {})
    await admin.end()
  }
}

/** Drives `targets` at once, `connections` split between them; req/s and counts add up. */
function loadOn(targets: readonly Target[], calls: readonly HttpCall[], seconds: number) {
  return loadOnAt(targets, calls, seconds, undefined)
}

async function loadOnAt(
  targets: readonly Target[],
  calls: readonly HttpCall[],
  seconds: number,
  rate: number | undefined,
): Promise<LoadResult> {
  const results = await Promise.all(
    targets.map((target) =>
      runLoad({
        url: target.url,
        calls,
        connections: connections / targets.length,
        seconds,
        ...(rate === undefined ? {} : { overallRate: rate / targets.length }),
      }),
    ),
  )
  const add = (pick: (result: LoadResult) => number) =>
    results.reduce((total, result) => total + pick(result), 0)
  const statuses: Record<string, number> = {}
  for (const result of results) {
    for (const [status, count] of Object.entries(result.statuses)) {
      statuses[status] = (statuses[status] ?? 0) + count
    }
  }
  return {
    requestsPerSecond: add((r) => r.requestsPerSecond),
    p50: Math.max(...results.map((r) => r.p50)),
    p99: Math.max(...results.map((r) => r.p99)),
    mean: add((r) => r.mean) / results.length,
    non2xx: add((r) => r.non2xx),
    errors: add((r) => r.errors),
    ok: add((r) => r.ok),
    statuses,
  }
}

async function waitForLine(path: string, text: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (readFileSync(path, 'utf8').includes(text)) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`no "${text}" in ${path} after 10 s`)
}

async function startRedis(): Promise<{ url: string; stop(): void }> {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' })
  } catch {
    return { url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', stop() {} }
  }
  const port = await freePort()
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  )
  const url = `redis://127.0.0.1:${port}`
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`http://127.0.0.1:${port}`).then(
      () => true,
      (error: { cause?: { code?: string } }) => error.cause?.code !== 'ECONNREFUSED',
    )
    if (up) break
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { url, stop: () => void child.kill('SIGKILL') }
}

const ratio = (value: number, ceiling: number) => (ceiling > 0 ? value / ceiling : Number.NaN)

export function renderScaleOutReport(result: ScaleOutResult): string {
  const lines = [
    '# Scale-out benchmark: PostgreSQL + Redis',
    '',
    `The service with \`DATABASE_URL\` and \`REDIS_URL\` (exact shared limits, pool of ${result.poolSize}) against the PostgreSQL data-path ceiling (bare \`node:http\` + node-postgres, same pool size, the same page query or a single-row INSERT in autocommit). Two workers: one instance with \`PETSTORE_WORKERS=2\` (\`node:cluster\`, one port); its last column is its speed-up over one instance. ${connections} connections in all; median of ${result.rounds} round(s) of ${result.seconds} s. Target: service / ceiling >= ${scaleOutTarget} for list and create. The service answers a full first page from its page cache (exact on PostgreSQL too, see \`store/postgres/README.md\`) and known keys from its key cache, so per list request it pays one Redis script where the ceiling pays one query.`,
    '',
    table(
      [
        'workload',
        'ceiling req/s',
        'one instance req/s',
        'ratio',
        'two instances req/s',
        'ratio',
        'two workers req/s',
        'ratio',
        'workers / one instance',
        'p99 ms (ceiling / one / two / workers)',
        'failures',
      ],
      result.workloads.map(({ label, figures: f }) => {
        const c = f.ceiling.requestsPerSecond
        const mark = (value: number) =>
          `${ratio(value, c).toFixed(2)} ${ratio(value, c) >= scaleOutTarget ? 'met' : 'not met'}`
        return [
          label,
          String(Math.round(c)),
          String(Math.round(f['one instance'].requestsPerSecond)),
          mark(f['one instance'].requestsPerSecond),
          String(Math.round(f['two instances'].requestsPerSecond)),
          mark(f['two instances'].requestsPerSecond),
          String(Math.round(f['two workers'].requestsPerSecond)),
          mark(f['two workers'].requestsPerSecond),
          ratio(f['two workers'].requestsPerSecond, f['one instance'].requestsPerSecond).toFixed(2),
          setups.map((setup) => f[setup].p99.toFixed(1)).join(' / '),
          String(setups.reduce((n, setup) => n + f[setup].failures, 0)),
        ]
      }),
    ).trimEnd(),
  ]
  if (result.soak !== undefined) {
    const { load } = result.soak
    const failures = load.non2xx + load.errors
    lines.push(
      '',
      `Soak: two instances, ${result.soak.seconds} s at ${result.soak.rate} req/s (90% list, 10% create): ${load.ok} 2xx, ${load.non2xx} non-2xx, ${load.errors} errors, p99 ${load.p99.toFixed(1)} ms: ${failures === 0 ? 'zero errors, met' : 'not met'}.`,
    )
  }
  return `${lines.join('\n')}\n`
}
