/** The machine a run happened on, for the report's header. */
import { execFileSync } from 'node:child_process'
import { cpus, loadavg, release, totalmem } from 'node:os'

export interface MachineInfo {
  cpuModel: string
  cores: number
  /** Bytes. */
  memory: number
  node: string
  kernel: string
  /** 1-minute load average when the run started (the machine may be shared). */
  loadAverage: number
  date: string
}

export function describeMachine(now = new Date()): MachineInfo {
  const cores = cpus()
  return {
    cpuModel: cores[0]?.model.trim() ?? 'unknown',
    cores: cores.length,
    memory: totalmem(),
    node: process.version,
    kernel: `${process.platform} ${release()}`,
    loadAverage: loadavg()[0] ?? 0,
    date: now.toISOString(),
  }
}

/**
 * The commit measured, e.g. `3a3651b` or `3a3651b+changes` when `paths` have uncommitted
 * changes; undefined outside a git checkout.
 */
export function describeRevision(cwd: string, paths: readonly string[]): string | undefined {
  try {
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim()
    const commit = git('rev-parse', '--short', 'HEAD')
    const dirty = git('status', '--porcelain', '--', ...paths) !== ''
    return dirty ? `${commit}+changes` : commit
  } catch {
    return undefined
  }
}
