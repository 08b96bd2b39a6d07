/**
 * Test helpers: ceilings listening in the test's own process on port 0, a SQLite file with the
 * service's real schema (created by the service's own store) in a temp directory per test.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { issueApiKey, openSqliteStore } from '@petstore/server'
import { afterAll, beforeAll } from 'vitest'
import { createDataPathCeiling, type DataPathCeiling } from '../src/ceilings/data-path.js'
import { type SeedPlan, seedPets, workspaceServer } from '../src/seed.js'
import type { Target, TargetName } from '../src/targets.js'

/** A temp directory removed by the returned function. */
export function tempDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'bench-test-'))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/** An empty database at `path` with the service's schema (its migrations, run by its store). */
export async function createServiceDatabase(path: string): Promise<string> {
  const store = openSqliteStore(path)
  await store.close()
  return path
}

/**
 * A database at `path` with the service's schema and an enterprise key whose limits no test
 * reaches; returns the raw key.
 */
export async function createKeyedDatabase(path: string): Promise<string> {
  const store = openSqliteStore(path)
  try {
    const limits = { perMinute: 1_000_000, perDay: 1_000_000 }
    return (await issueApiKey(store.keys, { plan: 'enterprise', ...limits })).rawKey
  } finally {
    await store.close()
  }
}

/** Listens on 127.0.0.1:0 and returns the base URL. */
export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
}

/**
 * The SQLite data-path ceiling on a fresh database seeded with `plan`, listening for the tests
 * of the calling `describe` block; `url` is set once its `beforeAll` has run.
 */
export function servedDataPathCeiling(plan: SeedPlan): { dbPath: string; url: string } {
  const temp = tempDir()
  const served = { dbPath: join(temp.dir, 'ceiling.db'), url: '' }
  let ceiling: DataPathCeiling | undefined
  beforeAll(async () => {
    await createServiceDatabase(served.dbPath)
    await seedPets(workspaceServer, served.dbPath, plan)
    ceiling = createDataPathCeiling(served.dbPath)
    served.url = await listen(ceiling.server)
  })
  afterAll(async () => {
    if (ceiling !== undefined) {
      await closeServer(ceiling.server)
      ceiling.close()
    }
    temp.remove()
  })
  return served
}

/** A target served by this process (RSS readings are this process's). */
export function inProcessTarget(name: TargetName, url: string): Target {
  return { name, url, pid: process.pid, stop: async () => {}, kill: async () => {} }
}
