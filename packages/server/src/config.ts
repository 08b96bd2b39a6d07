/**
 * The service's configuration: read once from the environment at start, validated, typed and
 * frozen. A bad value throws a ConfigError whose message is one line naming the variable.
 * Every default lives here, and this file imports nothing of the app.
 */
import { existsSync } from 'node:fs'
import { isIPv6 } from 'node:net'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Rate-limit window lengths in seconds: a minute and a day in production, shorter in tests. */
export interface WindowLengths {
  readonly minuteSeconds: number
  readonly daySeconds: number
}

export const productionWindows: WindowLengths = Object.freeze({
  minuteSeconds: 60,
  daySeconds: 86_400,
})

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'

export interface Config {
  /** TCP port; 0 picks a free one. `PORT`, default 3000. */
  port: number
  /** Interface to listen on. `HOST`, default 127.0.0.1. */
  host: string
  /** SQLite file. `PETSTORE_DB`, default `data/petstore.db` at the workspace root. */
  dbPath: string
  /** `DATABASE_URL` (`postgres://…`): selects the PostgreSQL store instead of SQLite. */
  databaseUrl: string | undefined
  /** Connections to PostgreSQL at most, per instance. `PETSTORE_DB_POOL`, default 10. */
  dbPoolSize: number
  /** `REDIS_URL`: selects Redis for rate-limit counters and bans. */
  redisUrl: string | undefined
  /** While Redis is lost: refuse with 503, or limit per instance. `PETSTORE_LIMITS_ON_REDIS_ERROR`. */
  limitsOnRedisError: 'closed' | 'local'
  /** Requests sent while limited that start a ban. `PETSTORE_BAN_THRESHOLD`, default 10. */
  banThreshold: number
  /** Ban length in seconds. `PETSTORE_BAN_SECONDS`, default 900. */
  banSeconds: number
  /** Rate-limit window lengths, a minute and a day; not read from the environment (tests). */
  rateLimitWindows: WindowLengths
  /** Allowed CORS origins, or `*`. `PETSTORE_CORS_ORIGINS` (comma list), default `*`. */
  corsOrigins: '*' | readonly string[]
  /**
   * The built docs directory served at `/docs`. `PETSTORE_DOCS_DIR`; default `packages/docs/dist`
   * in this repository, else the copy the package ships in `dist/docs`.
   */
  docsDir: string
  /** Secret behind pagination cursors; generated and kept in the store when unset. `PETSTORE_CURSOR_SECRET`. */
  cursorSecret: string | undefined
  /** Seconds SIGTERM waits for in-flight requests. `PETSTORE_SHUTDOWN_SECONDS`, default 10. */
  shutdownSeconds: number
  /**
   * Seconds a request may take to arrive in full (headers and body) before it is answered
   * `408` and its connection closed, so a stalled client cannot hold a connection for ever.
   * `PETSTORE_REQUEST_TIMEOUT_SECONDS`, default 30.
   */
  requestTimeoutSeconds: number
  /** Seconds an idle keep-alive connection is kept open. `PETSTORE_KEEP_ALIVE_SECONDS`, default 5. */
  keepAliveSeconds: number
  /**
   * Open connections at most; further ones are closed at once, keeping descriptors for the
   * connections already served. `PETSTORE_MAX_CONNECTIONS`, default 1000.
   */
  maxConnections: number
  /**
   * Open connections of one client address at most, so one address cannot take them all;
   * further ones are closed at once. Trusted proxies (`trustProxy`) are exempt.
   * `PETSTORE_MAX_CONNECTIONS_PER_ADDRESS`, default 128: above the 100 parallel requests one
   * client may send and have counted exactly (test/rate-limit/http.test.ts), far below
   * `maxConnections`.
   */
  maxConnectionsPerAddress: number
  /**
   * Which proxies' `X-Forwarded-For` to believe for the client address (per-IP limits):
   * `false` (none), a hop count, or addresses and CIDRs. `PETSTORE_TRUST_PROXY`, default off.
   */
  trustProxy: false | number | readonly string[]
  /**
   * Server processes sharing the port under `node:cluster`, to use more than one core.
   * `PETSTORE_WORKERS`, default 1 (one process, no cluster). Above 1 it needs `DATABASE_URL`
   * and `REDIS_URL`: the embedded store and in-memory limits are per process.
   */
  workers: number
  /** `LOG_LEVEL`, default info. */
  logLevel: LogLevel
}

/** A configuration value that cannot be used; its message is one line for stderr. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

const logLevels: readonly LogLevel[] = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
]

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const workspaceRoot = resolve(packageRoot, '..', '..')
const inWorkspace = existsSync(join(workspaceRoot, 'pnpm-workspace.yaml'))

/**
 * The workspace root when the server runs from this repository (so `pnpm start`, whose cwd is
 * the package, and `pnpm petstore`, whose cwd is the root, share one database), else the cwd.
 */
function defaultDataRoot(): string {
  return inWorkspace ? workspaceRoot : process.cwd()
}

/**
 * In this repository the docs package's own build, so that a docs rebuild shows without
 * rebuilding the server; installed from npm, the copy of it the build puts in `dist/docs`.
 */
function defaultDocsDir(): string {
  return inWorkspace
    ? join(workspaceRoot, 'packages', 'docs', 'dist')
    : join(packageRoot, 'dist', 'docs')
}

/**
 * Reads the configuration from `env`.
 *
 * @example
 * ```ts
 * const config = loadConfig({ PORT: '8080', PETSTORE_DB: '/var/lib/petstore.db' })
 * config.port // 8080
 * ```
 */
export function loadConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
): Config {
  const read = (name: string): string | undefined => {
    const value = env[name]
    return value === undefined || value.trim() === '' ? undefined : value.trim()
  }
  const config = freezeConfig({
    port: integer('PORT', read('PORT'), 3000, 0, 65535),
    host: read('HOST') ?? '127.0.0.1',
    dbPath: filePath(read('PETSTORE_DB')) ?? join(defaultDataRoot(), 'data', 'petstore.db'),
    databaseUrl: url('DATABASE_URL', read('DATABASE_URL'), ['postgres:', 'postgresql:']),
    dbPoolSize: integer('PETSTORE_DB_POOL', read('PETSTORE_DB_POOL'), 10, 1, 1000),
    redisUrl: url('REDIS_URL', read('REDIS_URL'), ['redis:', 'rediss:']),
    limitsOnRedisError: oneOf(
      'PETSTORE_LIMITS_ON_REDIS_ERROR',
      read('PETSTORE_LIMITS_ON_REDIS_ERROR'),
      ['closed', 'local'] as const,
    ),
    banThreshold: integer('PETSTORE_BAN_THRESHOLD', read('PETSTORE_BAN_THRESHOLD'), 10, 1, 1e6),
    banSeconds: integer('PETSTORE_BAN_SECONDS', read('PETSTORE_BAN_SECONDS'), 900, 1, 86400 * 30),
    rateLimitWindows: productionWindows,
    corsOrigins: origins(read('PETSTORE_CORS_ORIGINS')),
    docsDir: filePath(read('PETSTORE_DOCS_DIR')) ?? defaultDocsDir(),
    cursorSecret: secret(read('PETSTORE_CURSOR_SECRET')),
    shutdownSeconds: integer(
      'PETSTORE_SHUTDOWN_SECONDS',
      read('PETSTORE_SHUTDOWN_SECONDS'),
      10,
      0,
      3600,
    ),
    requestTimeoutSeconds: integer(
      'PETSTORE_REQUEST_TIMEOUT_SECONDS',
      read('PETSTORE_REQUEST_TIMEOUT_SECONDS'),
      30,
      1,
      3600,
    ),
    keepAliveSeconds: integer(
      'PETSTORE_KEEP_ALIVE_SECONDS',
      read('PETSTORE_KEEP_ALIVE_SECONDS'),
      5,
      1,
      3600,
    ),
    maxConnections: integer(
      'PETSTORE_MAX_CONNECTIONS',
      read('PETSTORE_MAX_CONNECTIONS'),
      1000,
      1,
      1_000_000,
    ),
    maxConnectionsPerAddress: integer(
      'PETSTORE_MAX_CONNECTIONS_PER_ADDRESS',
      read('PETSTORE_MAX_CONNECTIONS_PER_ADDRESS'),
      128,
      1,
      1_000_000,
    ),
    trustProxy: trustProxy(read('PETSTORE_TRUST_PROXY')),
    workers: integer('PETSTORE_WORKERS', read('PETSTORE_WORKERS'), 1, 1, maxWorkers),
    logLevel: logLevel(read('LOG_LEVEL')),
  })
  checkWorkers(config)
  return config
}

/** Far above any core count this service is run on; a typo such as 40000 fails fast. */
const maxWorkers = 256

/**
 * Several workers are several instances: they must share data and limits, which only
 * PostgreSQL and Redis do. The embedded SQLite store has one writer, and its page cache and
 * in-memory limits belong to one process, so N workers would allow N times a plan's quota.
 */
function checkWorkers(config: Config): void {
  if (config.workers === 1) return
  if (config.databaseUrl === undefined) {
    throw new ConfigError(
      `PETSTORE_WORKERS=${config.workers} needs DATABASE_URL and REDIS_URL: the embedded SQLite store is single-instance (one writer; its page cache and in-memory limits are per process), so it runs as one process; use PostgreSQL and Redis to scale out`,
    )
  }
  if (config.redisUrl === undefined) {
    throw new ConfigError(
      `PETSTORE_WORKERS=${config.workers} needs REDIS_URL: without Redis, rate limits and bans live in each worker's memory, so N workers would allow N times a plan's quota`,
    )
  }
}

/** The defaults with `overrides` applied, checked and frozen (for tests and embedding). */
export function configWith(
  overrides: Partial<Config> = {},
  env: Record<string, string> = {},
): Config {
  return freezeConfig({ ...loadConfig(env), ...overrides })
}

function freezeConfig(config: Config): Config {
  if (Array.isArray(config.corsOrigins)) Object.freeze(config.corsOrigins)
  if (Array.isArray(config.trustProxy)) Object.freeze(config.trustProxy)
  return Object.freeze(config)
}

function integer(
  name: string,
  raw: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (raw === undefined) return fallback
  const value = /^[0-9]+$/.test(raw) ? Number(raw) : Number.NaN
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`)
  }
  return value
}

function filePath(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined
  return isAbsolute(raw) ? raw : resolve(process.cwd(), raw)
}

function url(
  name: string,
  raw: string | undefined,
  protocols: readonly string[],
): string | undefined {
  if (raw === undefined) return undefined
  let parsed: URL
  try {
    parsed = new URL(raw)
  } catch {
    throw new ConfigError(`${name} must be a URL (${protocols.join(' or ')}//…)`)
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(
      `${name} must start with ${protocols.join(' or ')}//, got ${parsed.protocol}//`,
    )
  }
  return raw
}

function origins(raw: string | undefined): '*' | readonly string[] {
  if (raw === undefined || raw === '*') return '*'
  return raw.split(',').map((entry) => {
    const origin = entry.trim()
    let parsed: URL | undefined
    try {
      parsed = new URL(origin)
    } catch {
      parsed = undefined
    }
    if (parsed === undefined || parsed.origin !== origin || !/^https?:$/.test(parsed.protocol)) {
      throw new ConfigError(
        `PETSTORE_CORS_ORIGINS must be * or a comma list of origins like https://app.example, got "${origin}"`,
      )
    }
    return origin
  })
}

const ipv4 = /^(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])){3}$/

/** `off`/`false`, a hop count (`1`: the nearest proxy), or a comma list of addresses and CIDRs. */
function trustProxy(raw: string | undefined): false | number | readonly string[] {
  if (raw === undefined || /^(off|false|0)$/i.test(raw)) return false
  if (/^[0-9]+$/.test(raw)) return integer('PETSTORE_TRUST_PROXY', raw, 0, 1, 100)
  return raw.split(',').map((entry) => {
    const value = entry.trim()
    const [address = '', bits, ...rest] = value.split('/')
    const v4 = ipv4.test(address)
    const v6 = !v4 && isIPv6(address)
    const maxBits = v4 ? 32 : 128
    const bitsOk = bits === undefined || (/^[0-9]{1,3}$/.test(bits) && Number(bits) <= maxBits)
    if (!(v4 || v6) || !bitsOk || rest.length > 0) {
      throw new ConfigError(
        `PETSTORE_TRUST_PROXY must be off, a hop count, or a comma list of addresses/CIDRs like 10.0.0.0/8, got "${value}"`,
      )
    }
    return value
  })
}

function secret(raw: string | undefined): string | undefined {
  if (raw !== undefined && raw.length < 32) {
    throw new ConfigError('PETSTORE_CURSOR_SECRET must be at least 32 characters long')
  }
  return raw
}

/** `raw` if it is one of `values`; the first of them when unset. */
function oneOf<T extends string>(name: string, raw: string | undefined, values: readonly T[]): T {
  if (raw === undefined) return values[0] as T
  if (!values.includes(raw as T)) {
    throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}"`)
  }
  return raw as T
}

function logLevel(raw: string | undefined): LogLevel {
  if (raw === undefined) return 'info'
  const level = raw.toLowerCase() as LogLevel
  if (!logLevels.includes(level)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${logLevels.join(', ')}, got "${raw}"`)
  }
  return level
}
