/**
 * @petstore/server: the Pet Adoption Service as a library. `startPetstore` runs a complete
 * server (fresh SQLite file, port 0, quiet logs) for tests, docs and benchmarks.
 *
 * @example
 * ```ts
 * import { startPetstore } from '@petstore/server'
 * const petstore = await startPetstore()
 * const key = await petstore.issueKey({ plan: 'free' })
 * await fetch(`${petstore.url}/v1/pets`, { headers: { authorization: `Bearer ${key}` } })
 * await petstore.close()
 * ```
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Plan } from '@petstore/types'
import { buildApp } from './app.js'
import { issueApiKey } from './auth/api-key.js'
import { type Config, configWith } from './config.js'
import { openSqliteStore } from './store/sqlite.js'

export type { AppDeps } from './app.js'
export { buildApp } from './app.js'
export type { IssueKeyInput } from './auth/api-key.js'
export { hashApiKey, issueApiKey } from './auth/api-key.js'
export type { ApiKeyRecord, Caller } from './auth/caller.js'
export type { Config, LogLevel } from './config.js'
export { ConfigError, configWith, loadConfig } from './config.js'
export { ApiProblem, errorCatalog } from './errors.js'
export type { RedisRateLimiter, RedisRateLimiterOptions } from './rate-limit/redis.js'
export { createRedisRateLimiter } from './rate-limit/redis.js'
export type { PostgresStoreOptions } from './store/postgres/index.js'
export { openPostgresStore } from './store/postgres/index.js'
export { openSqliteStore } from './store/sqlite.js'
export type { Store } from './store/store.js'

export const SERVICE_NAME = 'petstore'

export interface RunningPetstore {
  /** Base URL without `/v1`, e.g. `http://127.0.0.1:43567`. */
  url: string
  /** Creates an API key and returns the raw key. */
  issueKey(input: {
    plan: Plan
    name?: string
    perMinute?: number
    perDay?: number
  }): Promise<string>
  /** Stops the server, closes the store and removes its temporary directory. */
  close(): Promise<void>
}

/**
 * Starts a server on 127.0.0.1, port 0, with a fresh SQLite file in a temporary directory and
 * logging off, unless `overrides` say otherwise. The environment is not read.
 */
export async function startPetstore(overrides: Partial<Config> = {}): Promise<RunningPetstore> {
  const tempDir =
    overrides.dbPath === undefined ? mkdtempSync(join(tmpdir(), 'petstore-')) : undefined
  const config = configWith({
    host: '127.0.0.1',
    port: 0,
    logLevel: 'silent',
    ...(tempDir === undefined ? {} : { dbPath: join(tempDir, 'petstore.db') }),
    ...overrides,
  })
  const store = openSqliteStore(config.dbPath)
  const app = await buildApp(config, { store })
  await app.listen({ host: config.host, port: config.port })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('server has no TCP address')
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  let closed = false
  return {
    url: `http://${host}:${address.port}`,
    async issueKey(input) {
      return (await issueApiKey(store.keys, input)).rawKey
    },
    async close() {
      if (closed) return
      closed = true
      await app.close()
      await store.close()
      if (tempDir !== undefined) rmSync(tempDir, { recursive: true, force: true })
    },
  }
}
