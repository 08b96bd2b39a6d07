/**
 * The service's configuration: read once from the environment at start, validated, typed and
 * frozen. A bad value throws a ConfigError whose message is one line naming the variable.
 *
 * Each variable is one row of `configTable` (its name, default, parser and meaning); the
 * `Config` type, the README's configuration table (`test/config-table.ts`) and the config
 * tests all come from the rows, so adding a variable is adding a row. Every variable's default
 * lives in its row, and this file imports nothing of the app. What no variable sets is not
 * configuration and stays a constant of its module (idempotency/idempotency.ts: the spec's
 * 24 hours a key is kept, when an in-flight claim counts as abandoned, how long a duplicate
 * waits).
 */
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  ConfigError,
  filePath,
  integer,
  oneOf,
  origins,
  type Parser,
  secret,
  text,
  trustProxy,
  url,
} from './config-parsers.js'

export { ConfigError } from './config-parsers.js'

/** Rate-limit window lengths in seconds: a minute and a day in production, shorter in tests. */
export interface WindowLengths {
  readonly minuteSeconds: number
  readonly daySeconds: number
}

export const productionWindows: WindowLengths = Object.freeze({
  minuteSeconds: 60,
  daySeconds: 86_400,
})

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof logLevels)[number]

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

/** One environment variable: its name, how it is read, its default and what it means. */
export interface ConfigRow<T> {
  readonly variable: string
  readonly parser: Parser<T>
  /** The value when the variable is unset or blank; a function when it depends on the install. */
  readonly default: T | (() => T)
  /** How the default reads in the README when it is not a plain value (a computed path). */
  readonly shownDefault?: string
  /** Its meaning, as the README's table says it (Markdown, one paragraph). */
  readonly doc: string
}

/** A row whose value is the parser's type, or `undefined` when the default is. */
function row<const T>(
  definition: Omit<ConfigRow<T>, 'default'> & { default: undefined },
): ConfigRow<T | undefined>
function row<const T>(definition: ConfigRow<T>): ConfigRow<T>
function row<const T>(definition: ConfigRow<T>): ConfigRow<T> {
  return definition
}

/** Far above any core count this service is run on; a typo such as 40000 fails fast. */
const maxWorkers = 256

/** Every variable the service reads, keyed by its `Config` field; the README lists them in this order. */
export const configTable = {
  port: row({
    variable: 'PORT',
    parser: integer(0, 65535),
    default: 3000,
    doc: 'TCP port (0 picks a free one)',
  }),
  host: row({
    variable: 'HOST',
    parser: text,
    default: '127.0.0.1',
    doc: 'Interface to listen on',
  }),
  dbPath: row({
    variable: 'PETSTORE_DB',
    parser: filePath,
    default: () => join(defaultDataRoot(), 'data', 'petstore.db'),
    shownDefault: '`<workspace root>/data/petstore.db`',
    doc: 'SQLite file; its directory is created. A relative value is resolved against the process cwd (note: `pnpm start` runs with cwd `packages/server`, `pnpm petstore` with the repository root, so prefer an absolute path). Outside this repository the default is `./data/petstore.db` in the cwd.',
  }),
  databaseUrl: row({
    variable: 'DATABASE_URL',
    parser: url(['postgres:', 'postgresql:']),
    default: undefined,
    doc: '`postgres://…` selects the PostgreSQL store instead of SQLite (see "Running more than one instance" in the repository README)',
  }),
  dbPoolSize: row({
    variable: 'PETSTORE_DB_POOL',
    parser: integer(1, 1000),
    default: 10,
    doc: 'PostgreSQL connections per instance, at most',
  }),
  redisUrl: row({
    variable: 'REDIS_URL',
    parser: url(['redis:', 'rediss:']),
    default: undefined,
    doc: '`redis://…` keeps rate-limit counters and bans in Redis, shared by every instance',
  }),
  limitsOnRedisError: row({
    variable: 'PETSTORE_LIMITS_ON_REDIS_ERROR',
    parser: oneOf(['closed', 'local']),
    default: 'closed',
    doc: "While Redis is lost: `closed` answers /v1 with `503` and `Retry-After`, `local` limits with each instance's memory",
  }),
  banThreshold: row({
    variable: 'PETSTORE_BAN_THRESHOLD',
    parser: integer(1, 1_000_000),
    default: 10,
    doc: 'Requests sent while limited that ban a key',
  }),
  banSeconds: row({
    variable: 'PETSTORE_BAN_SECONDS',
    parser: integer(1, 86_400 * 30),
    default: 900,
    doc: 'Ban length',
  }),
  corsOrigins: row({
    variable: 'PETSTORE_CORS_ORIGINS',
    parser: origins,
    default: '*',
    doc: '`*` or a comma list of origins (`https://app.example,http://localhost:5173`)',
  }),
  docsDir: row({
    variable: 'PETSTORE_DOCS_DIR',
    parser: filePath,
    default: defaultDocsDir,
    shownDefault: '`packages/docs/dist`',
    doc: 'The built docs served at `/docs`. Installed from npm, the default is the copy the package ships in `dist/docs`',
  }),
  cursorSecret: row({
    variable: 'PETSTORE_CURSOR_SECRET',
    parser: secret(32),
    default: undefined,
    shownDefault: 'generated, kept in the DB',
    doc: 'Secret behind pagination cursors (at least 32 characters)',
  }),
  shutdownSeconds: row({
    variable: 'PETSTORE_SHUTDOWN_SECONDS',
    parser: integer(0, 3600),
    default: 10,
    doc: 'How long SIGTERM/SIGINT wait for in-flight requests',
  }),
  // Bounds how long a stalled client can hold a connection.
  requestTimeoutSeconds: row({
    variable: 'PETSTORE_REQUEST_TIMEOUT_SECONDS',
    parser: integer(1, 3600),
    default: 30,
    doc: 'A request (headers and body) must arrive within this time, else `408 request_timeout` and the connection is closed',
  }),
  keepAliveSeconds: row({
    variable: 'PETSTORE_KEEP_ALIVE_SECONDS',
    parser: integer(1, 3600),
    default: 5,
    doc: 'How long an idle keep-alive connection stays open',
  }),
  maxConnections: row({
    variable: 'PETSTORE_MAX_CONNECTIONS',
    parser: integer(1, 1_000_000),
    default: 1000,
    doc: "Open connections of the process at most, the API port's and the metrics listener's together; more are closed at once (keep it below the process's file-descriptor limit)",
  }),
  // 128: above the 100 parallel requests one client may send and have counted exactly, far
  // below `maxConnections`.
  maxConnectionsPerAddress: row({
    variable: 'PETSTORE_MAX_CONNECTIONS_PER_ADDRESS',
    parser: integer(1, 1_000_000),
    default: 128,
    doc: "Open connections of one client address at most; more are closed at once, so one address cannot starve the others. The trusted proxies of `PETSTORE_TRUST_PROXY` are not capped (all a hop count's peers are proxies)",
  }),
  trustProxy: row({
    variable: 'PETSTORE_TRUST_PROXY',
    parser: trustProxy,
    default: false,
    shownDefault: 'off',
    doc: '`off`, a hop count (`1`: one load balancer in front), or a comma list of proxy addresses/CIDRs (`10.0.0.0/8,192.168.1.2`): per-IP limits then use the client address from `X-Forwarded-For`',
  }),
  workers: row({
    variable: 'PETSTORE_WORKERS',
    parser: integer(1, maxWorkers),
    default: 1,
    doc: 'Server processes under `node:cluster` sharing the port, to use more cores; above 1 it needs `DATABASE_URL` and `REDIS_URL` (refused on the embedded SQLite store, see [Workers](#workers-petstore_workers)). `petstore serve --workers N` sets it',
  }),
  metricsPort: row({
    variable: 'PETSTORE_METRICS_PORT',
    parser: integer(0, 65535),
    default: undefined,
    shownDefault: 'unset',
    doc: 'Port of a second listener answering `GET /metrics` for Prometheus (0 picks a free one); unset, no listener and no metric is kept. See [Operating it](#operating-it)',
  }),
  metricsHost: row({
    variable: 'PETSTORE_METRICS_HOST',
    parser: text,
    default: '127.0.0.1',
    doc: 'Interface the metrics listener binds',
  }),
  traceSamplingFrom: row({
    variable: 'PETSTORE_TRACE_SAMPLING_FROM',
    parser: oneOf(['anyone', 'keys']),
    default: 'anyone',
    doc: "With traces on (`OTEL_*`, see [Traces](#traces)): whose `traceparent` decides whether a request is sampled. `anyone`: every caller's (a sampled caller is always traced, whatever `OTEL_TRACES_SAMPLER` says). `keys`: only a caller with a valid API key the server has seen; any other request starts a trace of its own, sampled by `OTEL_TRACES_SAMPLER`'s ratio and linked to the caller's, so an unauthenticated caller cannot make the server trace (and export) every request",
  }),
  responseCheck: row({
    variable: 'PETSTORE_RESPONSE_CHECK',
    parser: oneOf(['log', 'fail'] as const),
    default: 'log',
    doc: 'an answer missing a header the spec requires of it: `log` an error and send it, or `fail` it with a 500 (the tests do)',
  }),
  logLevel: row({
    variable: 'LOG_LEVEL',
    parser: oneOf(logLevels, { caseless: true }),
    default: 'info',
    doc: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`',
  }),
}

type ConfigTable = typeof configTable
/** The value a row gives. */
type ValueOf<R> = R extends ConfigRow<infer T> ? T : never

/** The configuration: one field per row of `configTable`, and the rate-limit windows. */
export type Config = { [K in keyof ConfigTable]: ValueOf<ConfigTable[K]> } & {
  /** Rate-limit window lengths, a minute and a day; not read from the environment (tests). */
  rateLimitWindows: WindowLengths
}

/** The value of `row` in `env`: parsed when set (trimmed, not blank), else its default. */
export function readRow<T>(
  row: ConfigRow<T>,
  env: Readonly<Record<string, string | undefined>>,
): T {
  const raw = env[row.variable]?.trim()
  if (raw !== undefined && raw !== '') return row.parser.parse(raw, row.variable)
  return typeof row.default === 'function' ? (row.default as () => T)() : row.default
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
  const values: Record<string, unknown> = { rateLimitWindows: productionWindows }
  for (const [field, definition] of Object.entries(configTable)) {
    values[field] = readRow(definition as ConfigRow<unknown>, env)
  }
  const config = freezeConfig(values as Config)
  checkWorkers(config)
  return config
}

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
  for (const value of Object.values(config)) if (Array.isArray(value)) Object.freeze(value)
  return Object.freeze(config)
}
