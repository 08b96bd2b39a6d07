/**
 * The write-path bench on the real built service and contract ceiling, briefly: both answer
 * every create after a commit the trace saw, and strace finds at least one fsync per commit
 * (what makes a 201 durable). The run is the built bench's (`dist`, which `test` builds first):
 * the ceiling is forked from its built child entry.
 */
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { straceCalls, writePathRow, writePathTable } from '../src/write-path.js'

const serverDir = fileURLToPath(new URL('../../server/', import.meta.url))

describe('writePathRow', () => {
  it('counts the commits and responses inside the windows, each response after its commit', () => {
    const row = writePathRow(
      'service',
      {
        commits: [
          [2, 1000, 1001],
          [1, 1002, 1004],
          [5, 3000, 3001],
        ],
        responses: [
          [999, 1001.5],
          [999.5, 1001.5],
          [1001, 1004.5],
          [2999, 3002],
        ],
      },
      [{ from: 1000, to: 2000, ok: 3, mainTicks: 1, allTicks: 2 }],
      1,
    )
    expect(row).toMatchObject({
      createsPerSecond: 3,
      commitsPerSecond: 2,
      groupMean: 1.5,
      groupMax: 2,
      syncsPerSecond: 2,
      arrivalToCommit: [2, 3],
      commitToResponse: [0.5, 0.5],
    })
  })
})

describe('straceCalls', () => {
  it('adds the calls of the named syscalls from the summary table', () => {
    const summary = `% time     seconds  usecs/call     calls    errors syscall
------ ----------- ----------- --------- --------- ----------------
 79.96    2.745107         643      4266       410 futex
  1.34    0.045958          40      1122           fsync
  0.20    0.000958          40        12           fdatasync
------ ----------- ----------- --------- --------- ----------------
100.00    3.433126          31    108000       435 total
`
    expect(straceCalls(summary, ['fsync', 'fdatasync'])).toBe(1134)
  })
})

describe('measureWritePath', () => {
  it('measures both targets: creates in commits, an fsync per commit at least', async () => {
    const built: string = '../dist/write-path.js'
    const { measureWritePath } = (await import(built)) as typeof import('../src/write-path.js')
    const rows = await measureWritePath(
      serverDir,
      { rounds: 1, seconds: 1, connections: 8, warmup: 0.5 },
      () => {},
    )
    expect(rows.map((row) => row.target)).toEqual(['service', 'contract'])
    for (const row of rows) {
      expect(row.createsPerSecond).toBeGreaterThan(0)
      expect(row.groupMax).toBeLessThanOrEqual(8)
      expect(row.syncsPerCommit).toBeGreaterThanOrEqual(1)
      expect(row.arrivalToCommit[0]).toBeGreaterThan(0)
    }
    expect(writePathTable(rows).split('\n')).toHaveLength(13)
  }, 60_000)
})
