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
export type { AppDeps } from './app.js'
export { buildApp } from './app.js'
export type { IssueKeyInput } from './auth/api-key.js'
export { hashApiKey, issueApiKey } from './auth/api-key.js'
export type { Caller } from './auth/caller.js'
export type { Condition, Service } from './backend-failure.js'
export { BackendUnavailableError } from './backend-failure.js'
export type { Config, LogLevel } from './config.js'
export { ConfigError, configWith, loadConfig } from './config.js'
export type { ProblemName } from './errors.js'
export { ApiProblem, errorCatalog, problem } from './errors.js'
export { contentTypeOf, fileInside } from './http/static-files.js'
export type { RedisRateLimiter, RedisRateLimiterOptions } from './rate-limit/redis.js'
export { createRedisRateLimiter } from './rate-limit/redis.js'
export type { RunningPetstore } from './server.js'
export { startPetstore } from './server.js'
export type { CommitMessage } from './store/commit-channel.js'
export { commitChannelName } from './store/commit-channel.js'
export type { PostgresStoreOptions } from './store/postgres/index.js'
export { openPostgresStore } from './store/postgres/index.js'
export { openSqliteStore } from './store/sqlite/index.js'
export type { ApiKeyRecord, Store } from './store/store.js'
