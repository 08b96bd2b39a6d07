/**
 * Metrics under `PETSTORE_WORKERS`: the primary asks every worker for its registry over the
 * cluster's IPC channel at each scrape and sums them (exposition.ts), so one `/metrics` on the
 * primary counts every worker exactly. A scrape that cannot reach every live worker in time
 * fails (503) rather than showing a sum that would read as counters going backwards.
 *
 * A worker that dies takes its counts with it: the sums then drop, which Prometheus's `rate()`
 * reads as a counter reset.
 */
import cluster from 'node:cluster'
import type { Registry } from 'prom-client'
import type { MetricsSource, RegistryJson } from './exposition.js'

const ask = 'petstore:metrics?'
const answer = 'petstore:metrics'
/** Below Prometheus's default scrape timeout (10 s). */
const workerTimeoutMs = 5000

interface Answer {
  type: typeof answer
  id: number
  metrics?: RegistryJson
  error?: string
}

/** In a worker: answers the primary's requests with `registry`. */
export function answerPrimary(registry: Registry): void {
  process.on('message', (message: { type?: unknown; id?: number }) => {
    if (message?.type !== ask) return
    const reply = (fields: Partial<Answer>) =>
      process.send?.({ type: answer, id: message.id, ...fields })
    registry.getMetricsAsJSON().then(
      (metrics) => reply({ metrics: metrics as RegistryJson }),
      (error: Error) => reply({ error: error.message }),
    )
  })
}

/** In the primary: the registries of every connected worker. */
export function workersSource(): MetricsSource {
  let nextId = 0
  const pending = new Map<number, (message: Answer) => void>()
  cluster.on('message', (_worker, message: Answer) => {
    if (message?.type === answer) pending.get(message.id)?.(message)
  })
  return () =>
    new Promise((resolve, reject) => {
      const id = nextId++
      const workers = Object.values(cluster.workers ?? {}).filter(
        (worker) => worker?.isConnected() === true,
      )
      const collected: RegistryJson[] = []
      let waiting = workers.length
      const finish = (error?: Error) => {
        clearTimeout(timer)
        pending.delete(id)
        if (error === undefined) resolve(collected)
        else reject(error)
      }
      const timer = setTimeout(
        () => finish(new Error(`${waiting} of ${workers.length} workers did not answer in time`)),
        workerTimeoutMs,
      )
      pending.set(id, (message) => {
        if (message.error !== undefined) return finish(new Error(message.error))
        collected.push(message.metrics ?? [])
        if (--waiting === 0) finish()
      })
      if (waiting === 0) return finish(new Error('no worker is running'))
      for (const worker of workers) worker?.send({ type: ask, id })
    })
}
