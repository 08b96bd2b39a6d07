/**
 * The one place where the configuration chooses the backends: the store (SQLite today,
 * PostgreSQL when `DATABASE_URL` is set, once that store exists) and where rate-limit counts
 * live (memory today, Redis when `REDIS_URL` is set, once that limiter exists).
 */
import { type Config, ConfigError } from './config.js'
import type { RateLimiter } from './rate-limit/limiter.js'
import { createMemoryRateLimiter } from './rate-limit/memory.js'
import { openSqliteStore } from './store/sqlite/index.js'
import type { Store } from './store/store.js'

/**
 * Opens the configured store; `server` for a server (the embedded store then refuses a second
 * server on its file), not for the CLI. Throws a ConfigError (one line for stderr) when the
 * configuration asks for a store this build does not have.
 */
export function openStore(
  config: Pick<Config, 'databaseUrl' | 'dbPath'>,
  options: { server?: boolean } = {},
): Store {
  if (config.databaseUrl !== undefined) {
    throw new ConfigError(
      'DATABASE_URL is set but this build has no PostgreSQL store yet; unset it to use SQLite (PETSTORE_DB)',
    )
  }
  return openSqliteStore(config.dbPath, options)
}

/** The rate limiter where request counts live; the caller closes it. */
export function createRateLimiter(_config: Pick<Config, 'redisUrl'>): RateLimiter {
  return createMemoryRateLimiter()
}
