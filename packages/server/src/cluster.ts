/**
 * `PETSTORE_WORKERS=N` (N > 1): the primary process of a `node:cluster` whose N workers each run
 * the whole service (`serve`) on one shared port, so one machine's cores serve one address. The
 * workers share data and limits through PostgreSQL and Redis exactly as separate instances do
 * (the config refuses N > 1 without both). The primary serves nothing: it forks the workers,
 * replaces one that dies (after a delay that doubles with each recent death, so a worker that
 * cannot start does not spin), forwards SIGTERM/SIGINT so each drains its in-flight requests,
 * and exits 0 once every worker has exited 0. It logs one line per worker start and exit.
 *
 * What to do on each event is decided by cluster-supervisor.ts (pure); this file turns the
 * cluster's events into those decisions and carries out the actions they return.
 *
 * @see https://nodejs.org/api/cluster.html
 */
import cluster, { type Worker } from 'node:cluster'
import { type Logger, pino } from 'pino'
import {
  initialState,
  onPrimaryFailure,
  onStop,
  onWorkerExit,
  onWorkerForked,
  onWorkerListening,
  type SupervisorAction,
  type SupervisorState,
  type Transition,
} from './cluster-supervisor.js'
import type { Config } from './config.js'
import { serveWorkersMetrics } from './metrics/index.js'
import { apiBasePath, baseUrl } from './urls.js'

/** How long after the workers' own shutdown deadline the primary kills what is left. */
const shutdownGraceMs = 5_000

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
    | 'workers'
    | 'shutdownSeconds'
    | 'logLevel'
    | 'host'
    | 'metricsPort'
    | 'metricsHost'
    | 'requestTimeoutSeconds'
    | 'keepAliveSeconds'
    | 'maxConnections'
  >,
  env: Readonly<Record<string, string | undefined>>,
): void {
  const log: Logger = pino(
    { level: config.logLevel, base: { pid: process.pid, role: 'primary' } },
    pino.destination({ dest: 1, sync: true }),
  )
  const workerEnv = definedOnly(env)
  /** Workers not yet exited (`cluster.workers` may still list one whose exit was reported). */
  const live = new Map<number, Worker>()
  const pendingForks = new Set<NodeJS.Timeout>()
  let state: SupervisorState = initialState(config.workers)

  const apply = (transition: Transition, worker?: Worker) => {
    state = transition.state
    for (const action of transition.actions) perform(action, worker)
  }

  const fork = () => {
    const worker = cluster.fork(workerEnv)
    live.set(worker.id, worker)
    state = onWorkerForked(state, worker.id)
    log.info(workerFields(worker), `worker ${worker.id} started`)
  }

  const stopWorkers = (signal: NodeJS.Signals) => {
    for (const timer of pendingForks) clearTimeout(timer)
    pendingForks.clear()
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

  const perform = (action: SupervisorAction, worker: Worker | undefined) => {
    switch (action.type) {
      case 'log': {
        const fields =
          worker !== undefined && 'worker' in action.fields
            ? { ...workerFields(worker), ...action.fields }
            : action.fields
        log[action.level](fields, action.message)
        return
      }
      case 'fork': {
        const timer = setTimeout(() => {
          pendingForks.delete(timer)
          fork()
        }, action.delayMs)
        pendingForks.add(timer)
        return
      }
      case 'stop':
        stopWorkers(action.signal)
        return
      case 'exit':
        process.exit(action.code)
    }
  }

  cluster.on('listening', (worker: Worker, address) => {
    const url = `${baseUrl(config.host, address.port)}${apiBasePath}`
    apply(onWorkerListening(state, worker.id, url), worker)
  })
  cluster.on('exit', (worker: Worker, code: number | null, signal: NodeJS.Signals | null) => {
    live.delete(worker.id)
    apply(onWorkerExit(state, code, signal, { worker: worker.id, now: Date.now() }), worker)
  })
  process.on('SIGTERM', () => apply(onStop(state, 'SIGTERM')))
  process.on('SIGINT', () => apply(onStop(state, 'SIGINT')))

  for (let i = 0; i < config.workers; i++) fork()
  serveWorkersMetrics(config, log, (error) => {
    const where = `${config.metricsHost}:${config.metricsPort}`
    apply(onPrimaryFailure(state, `cannot listen for metrics on ${where}: ${error.message}`))
  })
}

function workerFields(worker: Worker) {
  return { worker: worker.id, workerPid: worker.process.pid }
}

function definedOnly(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const defined: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) if (value !== undefined) defined[name] = value
  return defined
}
