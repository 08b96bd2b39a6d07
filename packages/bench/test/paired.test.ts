import { describe, expect, it } from 'vitest'
import { cpuTicks, pairedTable } from '../src/paired.js'

describe('cpuTicks', () => {
  it('reads a process’s CPU time, which grows as it works', () => {
    const before = cpuTicks(process.pid)
    const until = Date.now() + 100
    let spin = 0
    while (Date.now() < until) spin++
    expect(spin).toBeGreaterThan(0)
    expect(cpuTicks(process.pid)).toBeGreaterThan(before)
  })
})

describe('pairedTable', () => {
  it('prints each workload’s median ratio with its rounds', () => {
    const table = pairedTable([
      {
        workload: 'getPet',
        ratios: [1.01, 0.99, 1.02],
        median: 1.01,
        baseRate: 8000.4,
        headRate: 7990.6,
      },
    ])
    expect(table.split('\n')[2]).toBe(
      '| getPet | 1.010 | 1.010, 0.990, 1.020 | 8000 | 7991 | 0.999 |',
    )
  })
})
