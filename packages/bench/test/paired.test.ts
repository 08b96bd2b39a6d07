import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { contractBase, cpuTicks, pairedTable } from '../src/paired.js'

const serverDir = fileURLToPath(new URL('../../server/', import.meta.url))

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

describe('measurePair against the contract ceiling', () => {
  it('loads the built service and the ceiling alike in both start orders, every answer a 2xx', async () => {
    // The built bench's: the ceiling is forked from its built child entry.
    const built: string = '../dist/paired.js'
    const { measurePair } = (await import(built)) as typeof import('../src/paired.js')
    const lines: string[] = []
    const rows = await measurePair(
      { base: contractBase, head: serverDir },
      { rounds: 2, seconds: 1, connections: 4, pets: 600, only: ['getPet', 'walk', 'create'] },
      (line) => lines.push(line),
    )
    // Between the halves of each workload, the other build is started first.
    expect(lines.filter((line) => line.startsWith('both builds started again'))).toEqual([
      'both builds started again, head first',
      'both builds started again, base first',
      'both builds started again, head first',
    ])
    // 600 pets (getPet reads pet 500) and the 100 sold ones after them, 20 a page: each side walks
    // its own cursors.
    expect(rows.map((row) => row.workload)).toEqual([
      'getPet',
      'cold walk, limit=20 (35 pages)',
      'durable create',
    ])
    for (const row of rows) {
      expect(row.ratios).toHaveLength(2)
      expect(row.baseRate).toBeGreaterThan(0)
      expect(row.headRate).toBeGreaterThan(0)
      expect(row.median).toBeGreaterThan(0)
    }
  }, 60_000)
})
