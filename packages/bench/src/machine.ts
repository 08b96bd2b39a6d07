/** The machine a run happened on, for the report's header. */
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
