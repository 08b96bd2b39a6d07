/**
 * Chooses the backing services from the configuration, for the server and the CLI alike:
 * `DATABASE_URL` selects the PostgreSQL store (else the SQLite file), `REDIS_URL` the Redis
 * limiter with `PETSTORE_LIMITS_ON_REDIS_ERROR` deciding what happens while Redis is lost (else
 * limits stay in memory). A service that cannot be reached at start is a StartError whose
 * message is one line for stderr.
 */
import type { Config } from '../config.js'
import type { RateLimiter } from '../rate-limit/limiter.js'
import { createRedisRateLimiter } from '../rate-limit/redis.js'
import { type FallbackEvents, withRedisFallback } from '../rate-limit/redis-fallback.js'
import { openPostgresStore } from '../store/postgres/index.js'
import { openSqliteStore } from '../store/sqlite.js'
import type { Store } from '../store/store.js'

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
export function storeLocation(config: Config): string {
  return config.databaseUrl === undefined ? config.dbPath : redactUrl(config.databaseUrl)
}

export async function openStore(config: Config): Promise<Store> {
  try {
    if (config.databaseUrl === undefined) return openSqliteStore(config.dbPath)
    return await openPostgresStore({ url: config.databaseUrl, size: config.dbPoolSize })
  } catch (error) {
    throw new StartError(`cannot open the database ${storeLocation(config)}: ${reason(error)}`, {
      cause: error,
    })
  }
}

/** The Redis limiter when `REDIS_URL` is set; undefined means memory limits. */
export async function openLimiter(
  config: Config,
  events: FallbackEvents,
): Promise<RateLimiter | undefined> {
  if (config.redisUrl === undefined) return undefined
  try {
    const redis = await createRedisRateLimiter({ url: config.redisUrl })
    return withRedisFallback(redis, config.limitsOnRedisError, events)
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
