/**
 * The bench's view of durable writes (`pnpm --filter @petstore/bench write-path`): with
 * `PETSTORE_WRITE_TRACE=<file>` set when the process starts, every commit of a group of creates
 * (its size, when it began and when it was durable: synced) and every response (when its request arrived
 * and when it was written) is kept in memory and written to `<file>` as JSON when the process
 * exits. Read once here; unset (always, outside the bench), the store and the app test one
 * `undefined` per commit and add no hook.
 */
import { writeFileSync } from 'node:fs'
import type { FastifyInstance } from 'fastify'
import { configTable, readRow } from './config.js'

export interface WriteTrace {
  /** A group of `size` writes began its transaction at `startedAt` and was durable at `durableAt`. */
  commit(size: number, startedAt: number, durableAt: number): void
  /** A response to a request that arrived `elapsedMs` before it was written. */
  response(elapsedMs: number): void
}

/** Milliseconds since the epoch, with the fraction: the same clock in every process. */
export const traceClock = () => performance.timeOrigin + performance.now()

export interface WriteTraceFile {
  /** `[size, startedAt, durableAt]` per commit. */
  commits: [number, number, number][]
  /** `[arrivedAt, writtenAt]` per response. */
  responses: [number, number][]
}

function openWriteTrace(path: string | undefined): WriteTrace | undefined {
  if (path === undefined) return undefined
  const trace: WriteTraceFile = { commits: [], responses: [] }
  process.once('exit', () => writeFileSync(path, JSON.stringify(trace)))
  return {
    commit: (size, startedAt, durableAt) => trace.commits.push([size, startedAt, durableAt]),
    response(elapsedMs) {
      const writtenAt = traceClock()
      trace.responses.push([writtenAt - elapsedMs, writtenAt])
    },
  }
}

export const writeTrace = openWriteTrace(readRow(configTable.writeTrace, process.env))

/** With a write trace, records when each response of `app` is written. */
export function traceResponses(app: FastifyInstance): void {
  const trace = writeTrace
  if (trace === undefined) return
  app.addHook('onResponse', (_request, reply, done) => {
    trace.response(reply.elapsedTime)
    done()
  })
}
