/**
 * `PETSTORE_WORKERS=N` (N > 1): the primary process of a `node:cluster` whose N workers each run
 * the whole service (`serve`) on one shared port, so one machine's cores serve one address. The
 * workers share data and limits through PostgreSQL and Redis exactly as separate instances do
 * (the config refuses N > 1 without both). The primary serves nothing: it forks the workers,
 * replaces one that dies (after a delay that doubles with each recent death, so a worker that
 * cannot start does not spin), forwards SIGTERM/SIGINT so each drains its in-flight requests,
 * and exits 0 once every worker has exited 0. It logs one line per worker start and exit.
 *
 * @see https://nodejs.org/api/cluster.html
 */
import cluster, { type Worker } from 'node:cluster'
import { type Logger, pino } from 'pino'
import type { Config } from './config.js'
import { serveWorkersMetrics } from './metrics/index.js'

/** Deaths within this window make the next replacement wait longer. */
const crashWindowMs = 60_000
const firstRestartDelayMs = 500
const maxRestartDelayMs = 30_000
/** How long after the workers' own shutdown deadline the primary kills what is left. */
const shutdownGraceMs = 5_000

/** The delay before replacing a worker, given how many died in the last minute (>= 1). */
export function restartDelayMs(recentDeaths: number): number {
  return Math.min(maxRestartDelayMs, firstRestartDelayMs * 2 ** Math.max(0, recentDeaths - 1))
}

/**
 * Runs the primary until SIGTERM or SIGINT; owns the process and exits with 0 when every worker
 * drained and exited 0, else 1. `env` is what the workers are configured by (the variables
 * `serve` was given, flags included); they validate it again, as every instance does.
 *
 * @example
 * ```ts
 * if (cluster.isPrimary && config.workers > 1) superviseWorkers(config, env)
 * ```
 */
export function superviseWorkers(
  config: Pick<
    Config,
    'workers' | 'shutdownSeconds' | 'logLevel' | 'host' | 'metricsPort' | 'metricsHost'
  >,
  env: Readonly<Record<string, string | undefined>>,
): void {
  const log: Logger = pino(
    { level: config.logLevel, base: { pid: process.pid, role: 'primary' } },
    pino.destination({ dest: 1, sync: true }),
  )
  const workerEnv: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) if (value !== undefined) workerEnv[name] = value
  const deaths: number[] = []
  const restarts = new Set<NodeJS.Timeout>()
  /** Workers not yet exited (`cluster.workers` may still list one whose exit was reported). */
  const live = new Map<number, Worker>()
  const listening = new Set<number>()
  let announced = false
  let stopping = false
  let stopSignal: NodeJS.Signals | undefined
  let failed = false

  const fork = () => {
    const worker = cluster.fork(workerEnv)
    live.set(worker.id, worker)
    log.info({ worker: worker.id, workerPid: worker.process.pid }, `worker ${worker.id} started`)
  }

  cluster.on('listening', (worker: Worker, address) => {
    listening.add(worker.id)
    if (announced) {
      log.info(
        { worker: worker.id, workerPid: worker.process.pid },
        `worker ${worker.id} listening`,
      )
      return
    }
    if (listening.size < config.workers) return
    announced = true
    const host = config.host.includes(':') ? `[${config.host}]` : config.host
    log.info(
      { workers: config.workers },
      `${config.workers} workers listening on http://${host}:${address.port}/v1`,
    )
  })

  cluster.on('exit', (worker: Worker, code: number | null, signal: NodeJS.Signals | null) => {
    live.delete(worker.id)
    const hadListened = listening.delete(worker.id)
    const fields = { worker: worker.id, workerPid: worker.process.pid, code, signal }
    if (stopping) {
      // A worker still starting has no request to drain: the signal's default action is fine.
      if (code !== 0 && !(signal === stopSignal && !hadListened)) failed = true
      log.info(fields, `worker ${worker.id} exited (${signal ?? `code ${code}`})`)
      if (live.size === 0) process.exit(failed ? 1 : 0)
      return
    }
    if (!announced && !hadListened) {
      // A worker that cannot start before any has listened (port taken, store or Redis
      // unreachable) has said why on stderr; the others would fail the same way.
      log.error(fields, `worker ${worker.id} exited before listening; stopping`)
      failed = true
      stop('SIGTERM')
      return
    }
    const now = Date.now()
    deaths.push(now)
    while ((deaths[0] ?? now) < now - crashWindowMs) deaths.shift()
    const delay = restartDelayMs(deaths.length)
    log.error(
      { ...fields, restartInMs: delay },
      `worker ${worker.id} exited unexpectedly (${signal ?? `code ${code}`}); replacing it in ${delay} ms`,
    )
    const timer = setTimeout(() => {
      restarts.delete(timer)
      fork()
    }, delay)
    restarts.add(timer)
  })

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    stopSignal = signal
    for (const timer of restarts) clearTimeout(timer)
    restarts.clear()
    log.info({ signal }, 'shutting down: each worker drains its in-flight requests')
    if (live.size === 0) process.exit(failed ? 1 : 0)
    for (const worker of live.values()) worker.process.kill(signal)
    setTimeout(
      () => {
        log.error('workers did not exit in time; killing them')
        for (const worker of live.values()) worker.process.kill('SIGKILL')
        process.exit(1)
      },
      config.shutdownSeconds * 1000 + shutdownGraceMs,
    ).unref()
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))

  for (let i = 0; i < config.workers; i++) fork()
  serveWorkersMetrics(config, log, (error) => {
    log.error(
      `cannot listen for metrics on ${config.metricsHost}:${config.metricsPort}: ${error.message}`,
    )
    failed = true
    stop('SIGTERM')
  })
}
