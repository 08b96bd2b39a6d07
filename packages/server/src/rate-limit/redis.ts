/**
 * The rate limiter on Redis, shared by every instance: counts, refused counts and bans of a
 * subject live under one hash tag and are decided by one script per request (redis-script.ts).
 * They survive an instance restart (the memory limiter's do not).
 *
 * Requests never wait for a Redis that went away or stalled: commands time out after
 * `commandTimeoutMs`, and with the offline queue off a command sent while disconnected fails at
 * once. The first such failure opens a circuit breaker (circuit-breaker.ts): from then on
 * `consume` fails at once, without waiting for the deadline, until a PING in the background
 * answers again. Either way it rejects with BackendUnavailableError (see redis-fallback.ts for
 * what the service does then); the client reconnects by itself, so no restart is needed.
 * @see https://github.com/redis/ioredis#auto-reconnect
 */
import { Redis } from 'ioredis'
import { BackendUnavailableError, type Condition, wrapUnavailable } from '../backend-failure.js'
import { createCircuitBreaker } from './circuit-breaker.js'
import type { BanPolicy, LimitDecision, RateLimiter, WindowQuota, WindowState } from './limiter.js'
import { consumeScript } from './redis-script.js'

export interface RedisRateLimiterOptions {
  /** `redis://…` */
  url: string
  /** Put before every key; tests use a fresh one each. Default `petstore:`. */
  prefix?: string
  /**
   * Longest wait for one command, in milliseconds (default 500): a stalled Redis costs the
   * requests of this long once, then the circuit is open.
   */
  commandTimeoutMs?: number
  /** How often a lost Redis is tried again while the circuit is open, in ms (default 500). */
  retryMs?: number
}

export interface RedisRateLimiter extends RateLimiter {
  /** Always a promise: the counts are on Redis. */
  consume(subject: string, windows: readonly WindowQuota[], ban?: BanPolicy): Promise<LimitDecision>
  /** Resolves when Redis answers; rejects with BackendUnavailableError otherwise. */
  ping(): Promise<void>
}

type ConsumeReply = number[]
type ScriptClient = Redis & {
  petstoreConsume(numberOfKeys: number, ...args: (string | number)[]): Promise<ConsumeReply>
}

const outcomes = ['allowed', 'limited', 'banned'] as const

/**
 * Connects to Redis and returns the limiter; rejects with BackendUnavailableError when Redis
 * cannot be reached (the server then stops with one line).
 *
 * @example
 * ```ts
 * const limiter = await createRedisRateLimiter({ url: 'redis://127.0.0.1:6379' })
 * const minute = { name: 'minute', limit: 60, seconds: 60 }
 * const { outcome } = await limiter.consume('key_123', [minute], { threshold: 10, seconds: 900 })
 * ```
 */
export async function createRedisRateLimiter(
  options: RedisRateLimiterOptions,
): Promise<RedisRateLimiter> {
  const timeoutMs = options.commandTimeoutMs ?? 500
  const prefix = options.prefix ?? 'petstore:'
  const client = new Redis(options.url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    commandTimeout: timeoutMs,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    // Commands issued in one turn of the event loop go out in one write.
    enableAutoPipelining: true,
    retryStrategy: (times) => Math.min(times * 100, 1000),
  }) as ScriptClient
  // Connection errors are reported through the commands that fail; the client reconnects.
  client.on('error', () => {})
  client.defineCommand('petstoreConsume', { lua: consumeScript })
  try {
    await client.connect()
  } catch (error) {
    client.disconnect()
    throw new BackendUnavailableError('redis', 'unreachable', { cause: error })
  }

  const unavailableOr = (error: unknown) => wrapUnavailable('redis', redisCondition, error)
  const breaker = createCircuitBreaker({
    isOutage: (error) => error instanceof BackendUnavailableError,
    probe: () => client.ping().catch((error) => Promise.reject(unavailableOr(error))),
    retryMs: options.retryMs ?? 500,
  })
  const call = <T>(command: () => Promise<T>): Promise<T> =>
    breaker.run(() => command().catch((error) => Promise.reject(unavailableOr(error))))

  return {
    async consume(
      subject: string,
      windows: readonly WindowQuota[],
      ban?: BanPolicy,
    ): Promise<LimitDecision> {
      const tag = `${prefix}{${subject}}`
      const keys = [`${tag}:ban`, `${tag}:refused`, ...windows.map((w) => `${tag}:${w.name}`)]
      const args: number[] = [ban?.threshold ?? 0, (ban?.seconds ?? 0) * 1000]
      for (const window of windows) args.push(window.limit, window.seconds * 1000)
      const reply = await call(() => client.petstoreConsume(keys.length, ...keys, ...args))
      const states: WindowState[] = windows.map((quota, index) => ({
        quota,
        remaining: reply[4 + index * 2] as number,
        resetInMs: reply[5 + index * 2] as number,
      }))
      return {
        outcome: outcomes[reply[0] as number] ?? 'allowed',
        atMs: reply[1] as number,
        windows: states,
        retryInMs: reply[2] as number,
        banStarted: reply[3] === 1,
      }
    },
    async ping() {
      await call(() => client.ping())
    },
    async close() {
      breaker.close()
      client.disconnect()
    },
  }
}

/**
 * What a failed command says of Redis: its deadline passed (`stalled`) or there is no
 * connection (`unreachable`); a ReplyError is Redis's answer (a script error is a bug, a 500).
 */
function redisCondition(error: unknown): Condition | undefined {
  if ((error as Error).name === 'ReplyError') return undefined
  return /timed out/i.test((error as Error).message ?? '') ? 'stalled' : 'unreachable'
}
