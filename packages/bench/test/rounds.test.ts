import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDataPathCeiling, type DataPathCeiling } from '../src/ceilings/data-path.js'
import { createWireCeiling, routeKey } from '../src/ceilings/wire.js'
import { measureWorkload } from '../src/rounds.js'
import { seedPets, workspaceServer } from '../src/seed.js'
import type { Target } from '../src/targets.js'
import type { Workload } from '../src/workloads.js'
import { closeServer, createServiceDatabase, inProcessTarget, listen, tempDir } from './helpers.js'

const list = { method: 'GET', path: '/v1/pets?limit=20' } as const

describe('measureWorkload', () => {
  const temp = tempDir()
  let dataPath: DataPathCeiling
  const wire = createWireCeiling({
    [routeKey('GET', list.path)]: { status: 200, headers: {}, body: '[]' },
  })
  let targets: Target[]
  beforeAll(async () => {
    const dbPath = await createServiceDatabase(join(temp.dir, 'rounds.db'))
    await seedPets(workspaceServer, dbPath, { count: 50 })
    dataPath = createDataPathCeiling(dbPath)
    // The data-path ceiling stands in for the service: only the harness is under test.
    const dataUrl = await listen(dataPath.server)
    targets = [
      inProcessTarget('service', dataUrl),
      inProcessTarget('wire', await listen(wire)),
      inProcessTarget('data-path', dataUrl),
    ]
  })
  afterAll(async () => {
    await Promise.all([closeServer(dataPath.server), closeServer(wire)])
    dataPath.close()
    temp.remove()
  })

  // autocannon rounds a run up to about a second; six runs per test.
  const plan = { rounds: 2, seconds: 0.2, warmupSeconds: 0, connections: 2 }

  it('runs every target in every round and keeps medians and sums', async () => {
    const lines: string[] = []
    const workload: Workload = {
      id: 'list-20',
      label: '(a) list',
      data: '50 pets',
      calls: { service: list, wire: list, 'data-path': list, contract: list },
    }
    const result = await measureWorkload(workload, targets, plan, (line) => lines.push(line))
    expect(lines).toHaveLength(6)
    for (const name of ['service', 'wire', 'data-path'] as const) {
      const measured = result.targets[name]
      expect(measured.runs).toHaveLength(2)
      expect(measured.requestsPerSecond).toBeGreaterThan(0)
      expect(measured.p99).toBeGreaterThanOrEqual(measured.p50)
      expect(measured.non2xx + measured.errors).toBe(0)
    }
    expect(result.servicePeakRss).toBeGreaterThan(0)
  }, 20_000)

  it('counts non-2xx answers, warm-up included, and the 201s of creates', async () => {
    const workload: Workload = {
      id: 'create',
      label: '(d) create',
      data: '50 pets',
      calls: {
        service: { method: 'POST', path: '/v1/pets', body: '{"name":"Rex","categoryId":1}' },
        wire: { method: 'GET', path: '/v1/unknown' },
        'data-path': list,
        contract: list,
      },
    }
    const result = await measureWorkload(workload, targets, {
      ...plan,
      rounds: 1,
      warmupSeconds: 0.1,
    })
    const service = result.targets.service
    expect(service.created).toBeGreaterThan(0)
    expect(service.created).toBeGreaterThanOrEqual(
      service.runs.reduce((total, run) => total + (run.statuses['201'] ?? 0), 0),
    )
    expect(result.targets.wire.non2xx).toBeGreaterThan(0)
    expect(result.targets.wire.non2xx).toBeGreaterThan(
      result.targets.wire.runs.reduce((total, run) => total + run.non2xx, 0),
    )
  }, 20_000)
})
