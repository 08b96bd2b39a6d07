/**
 * The one place where the configuration chooses the backends, for the server and the CLI alike:
 * `DATABASE_URL` selects the PostgreSQL store (else the SQLite file), `REDIS_URL` the Redis
 * limiter with `PETSTORE_LIMITS_ON_REDIS_ERROR` deciding what happens while Redis is lost (else
 * limits stay in memory). A service that cannot be reached at start is a StartError whose
 * message is one line for stderr.
 *
 * The PostgreSQL and Redis clients are imported only when configured: loaded, `pg` and
 * `ioredis` held about 10 MB of a SQLite server's memory at start that it never used.
 */

import type { Outages } from './backend-failure.js'
import type { Config } from './config.js'
import type { RateLimiter } from './rate-limit/limiter.js'
import { createMemoryRateLimiter } from './rate-limit/memory.js'
import { withRedisFallback } from './rate-limit/redis-fallback.js'
import { openSqliteStore } from './store/sqlite/index.js'
import type { Store } from './store/store.js'

/** A backing service could not be opened at start; the message is one line. */
export class StartError extends Error {
  override name = 'StartError'
}

/** The URL without its password, fit for a log line. */
export function redactUrl(raw: string): string {
  const url = new URL(raw)
  if (url.password !== '') url.password = '***'
  return url.toString()
}

/** Where the store lives, for the start-up log line. */
export function storeLocation(config: Pick<Config, 'databaseUrl' | 'dbPath'>): string {
  return config.databaseUrl === undefined ? config.dbPath : redactUrl(config.databaseUrl)
}

/** Where rate-limit counts live, for the start-up log line. */
export function limitsLocation(config: Pick<Config, 'redisUrl'>): string {
  return config.redisUrl === undefined ? 'memory' : redactUrl(config.redisUrl)
}

/**
 * Opens the configured store; the caller closes it. `server` for a server, not the CLI: the
 * embedded store then takes its file's lock and refuses a second server on it (PostgreSQL needs
 * no lock: several instances sharing it is the point).
 */
export async function openStore(
  config: Pick<Config, 'databaseUrl' | 'dbPath' | 'dbPoolSize'>,
  options: { server?: boolean } = {},
): Promise<Store> {
  try {
    if (config.databaseUrl === undefined) return openSqliteStore(config.dbPath, options)
    const { openPostgresStore } = await import('./store/postgres/index.js')
    return await openPostgresStore({ url: config.databaseUrl, size: config.dbPoolSize })
  } catch (error) {
    throw new StartError(`cannot open the database ${storeLocation(config)}: ${reason(error)}`, {
      cause: error,
    })
  }
}

/**
 * The rate limiter where request counts live: Redis (with its fallback, which reports losses and
 * recoveries to `outages`) when `REDIS_URL` is set, else memory. The caller closes it.
 */
export async function createRateLimiter(
  config: Pick<Config, 'redisUrl' | 'limitsOnRedisError'>,
  outages: Outages,
): Promise<RateLimiter> {
  if (config.redisUrl === undefined) return createMemoryRateLimiter()
  try {
    const { createRedisRateLimiter } = await import('./rate-limit/redis.js')
    const redis = await createRedisRateLimiter({ url: config.redisUrl })
    return withRedisFallback(redis, config.limitsOnRedisError, outages)
  } catch (error) {
    throw new StartError(
      `cannot reach Redis at ${redactUrl(config.redisUrl)} (REDIS_URL): ${reason(error)}`,
      { cause: error },
    )
  }
}

function reason(error: unknown): string {
  let current = error as { message?: string; cause?: unknown; errors?: unknown[] } | undefined
  // Drivers wrap the socket error (and AggregateError hides it in `errors`): show the root.
  while (current?.cause !== undefined) current = current.cause as typeof current
  const message = current?.message || (current?.errors?.[0] as Error | undefined)?.message
  return (message ?? String(error)).split('\n', 1)[0] ?? ''
}
