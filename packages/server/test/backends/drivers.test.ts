/**
 * A server on its SQLite file loads neither the PostgreSQL nor the Redis client (backends.ts
 * imports each only when configured: together they held about 10 MB of its memory). Checked in
 * a fresh Node process, whose module cache holds only what the built server loaded.
 */
import { execFile } from 'node:child_process'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { requireBuiltServer, serverJs } from '../child-server.js'
import { inSchema, postgresUrl, redisUrl, schemaFactory, serviceAvailable } from '../services.js'

beforeAll(requireBuiltServer)

const drivers = ['pg', 'ioredis'] as const

/** Starts the built server in a fresh process with `overrides`; which drivers it loaded. */
function driversLoaded(overrides: object): Promise<Record<(typeof drivers)[number], boolean>> {
  const script = `
    import { createRequire } from 'node:module'
    const { startPetstore } = await import(${JSON.stringify(pathToFileURL(serverJs).href)})
    const petstore = await startPetstore(${JSON.stringify(overrides)})
    await fetch(petstore.url + '/healthz')
    const cache = Object.keys(createRequire(import.meta.url).cache)
    await petstore.close()
    const loaded = (name) => cache.some((path) => path.includes('/node_modules/' + name + '/'))
    console.log(JSON.stringify(Object.fromEntries(${JSON.stringify(drivers)}.map((name) => [name, loaded(name)]))))
  `
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], (error, stdout) => {
      if (error !== null) reject(error)
      else resolve(JSON.parse(stdout))
    })
  })
}

it('loads no PostgreSQL or Redis client on SQLite with limits in memory', async () => {
  expect(await driversLoaded({})).toEqual({ pg: false, ioredis: false })
})

const suite = 'test/backends/drivers.test.ts'
const backends =
  (await serviceAvailable('PostgreSQL', suite)) && (await serviceAvailable('Redis', suite))
const schemas = schemaFactory()
afterAll(() => schemas.dropAll())

it.runIf(backends)(
  'loads both once DATABASE_URL and REDIS_URL are set (what the check above would see)',
  async () => {
    const databaseUrl = inSchema(postgresUrl, await schemas.create())
    expect(await driversLoaded({ databaseUrl, redisUrl })).toEqual({ pg: true, ioredis: true })
  },
)
