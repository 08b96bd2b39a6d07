/**
 * The write path's trace (write-path.ts), recorded inside a traced process by a module loaded
 * with `node --import` (`writeTraceImport`), so that neither the service nor a ceiling carries
 * any of it: every commit the process publishes on the service's commit channel
 * (`@petstore/server`'s `commitChannelName`; the contract ceiling publishes its own there too) and
 * every HTTP response, from Node's own `http.server.request.start` and
 * `http.server.response.finish` channels. Kept in memory and written to the trace file as JSON
 * when the process exits.
 * @see https://nodejs.org/api/diagnostics_channel.html#built-in-channels
 */
import { subscribe } from 'node:diagnostics_channel'
import { readFileSync, writeFileSync } from 'node:fs'
import type { ServerResponse } from 'node:http'
import { type CommitMessage, commitChannelName } from '@petstore/server/internal/commit-channel'

/** What a trace file holds; times are epoch milliseconds with the fraction, one clock for all. */
export interface WriteTraceFile {
  /** `[writes, startedAt, durableAt]` per commit. */
  commits: [number, number, number][]
  /** `[arrivedAt, writtenAt]` per response. */
  responses: [number, number][]
}

/** This process's `performance.now()` as epoch milliseconds. */
const epoch = (now: number) => performance.timeOrigin + now

/** Records this process's commits and responses, written to `path` when it exits. */
export function recordWriteTrace(path: string): void {
  const trace: WriteTraceFile = { commits: [], responses: [] }
  const arrivals = new WeakMap<ServerResponse, number>()
  subscribe(commitChannelName, (message) => {
    const { writes, startedAt, durableAt } = message as CommitMessage
    trace.commits.push([writes, epoch(startedAt), epoch(durableAt)])
  })
  subscribe('http.server.request.start', (message) => {
    arrivals.set((message as { response: ServerResponse }).response, performance.now())
  })
  subscribe('http.server.response.finish', (message) => {
    const arrivedAt = arrivals.get((message as { response: ServerResponse }).response)
    if (arrivedAt !== undefined) trace.responses.push([epoch(arrivedAt), epoch(performance.now())])
  })
  process.once('exit', () => writeFileSync(path, JSON.stringify(trace)))
}

/** The trace `target` wrote to `path`, which must hold commits. */
export function readWriteTrace(path: string, target: string): WriteTraceFile {
  const trace = JSON.parse(readFileSync(path, 'utf8')) as WriteTraceFile
  if (trace.commits.length === 0) {
    throw new Error(
      `${target}: no commit was published on ${commitChannelName} (a server built before that channel cannot be traced)`,
    )
  }
  return trace
}

const preload = new URL('./write-trace-preload.js', import.meta.url)

/**
 * The Node flags that make a process record its write trace into `path`: the preload module,
 * the path in its URL (it runs before anything else could hand it over).
 */
export function writeTraceImport(path: string): string[] {
  const url = new URL(preload)
  url.searchParams.set('trace', path)
  return ['--import', url.href]
}
