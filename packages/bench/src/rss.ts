/**
 * Resident set size of another process, read from Linux's `/proc/<pid>/status` (`VmRSS` now,
 * `VmHWM` the peak since start). Elsewhere the readings are `undefined` and the report says so.
 * @see https://man7.org/linux/man-pages/man5/proc_pid_status.5.html
 */
import { readFileSync } from 'node:fs'

/** Bytes, or undefined where /proc is not available or the process is gone. */
export function readRss(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number | undefined {
  let status: string
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8')
  } catch {
    return undefined
  }
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)
  return match === null ? undefined : Number(match[1]) * 1024
}

export interface RssSampler {
  /** Stops sampling and returns the highest reading (bytes), or undefined. */
  stop(): number | undefined
}

/** Samples `VmRSS` every `everyMs` until stopped, keeping the highest reading. */
export function sampleRss(pid: number, everyMs = 100): RssSampler {
  let peak: number | undefined
  const read = () => {
    const rss = readRss(pid)
    if (rss !== undefined && (peak === undefined || rss > peak)) peak = rss
  }
  read()
  const timer = setInterval(read, everyMs)
  return {
    stop() {
      clearInterval(timer)
      read()
      return peak
    },
  }
}
