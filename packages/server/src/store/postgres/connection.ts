/**
 * The connection pool of the PostgreSQL store and what counts as "PostgreSQL is unreachable".
 * Every wait is bounded (connecting, each query), so a request never hangs on a database that
 * went away: it fails fast with BackendUnavailableError (backend-failure.ts), which the edge
 * answers with 503; so does a database that is out of disk or accepts no writes. The pool replaces broken connections by itself, so service returns once the database
 * does, without a restart.
 * @see https://node-postgres.com/apis/pool
 */
import pg from 'pg'
import { BackendUnavailableError, type Condition, wrapUnavailable } from '../../backend-failure.js'
import type { PostgresStoreOptions } from './options.js'

const int8 = 20
/** Ids and category ids are BIGINT columns holding safe integers: read them as numbers. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === int8 ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
}

/** How every connection of the store is made: the pool's, and the table-change listener's. */
export function connectionConfig(options: PostgresStoreOptions): pg.ClientConfig {
  const timeoutMs = options.timeoutMs ?? 5000
  return {
    connectionString: options.url,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    keepAlive: true,
    types,
    ...(options.schema === undefined ? {} : { options: `-c search_path=${options.schema}` }),
  }
}

export function openPool(options: PostgresStoreOptions): pg.Pool {
  const pool = new pg.Pool({ ...connectionConfig(options), max: options.size })
  // An idle connection that breaks (the server restarted) is dropped by the pool; without a
  // listener the error would end the process.
  pool.on('error', () => {})
  return pool
}

/**
 * PostgreSQL's and the socket's errors that mean the database cannot serve now, by condition.
 * Classes by their first two characters: 08 connection exception, 53 insufficient resources
 * (53100 disk full, 53200 out of memory, 53300 too many connections), 57P operator intervention
 * (57P01..57P05: shut down, crashed, starting up, dropped, idle session timeout), 58 system error (58030 I/O error); and 25006 read_only_sql_transaction
 * (a standby after a failover, `default_transaction_read_only`). A bad statement or a constraint
 * stays what it is: a bug, answered 500.
 * @see https://www.postgresql.org/docs/current/errcodes-appendix.html
 */
const conditionsByCode: Readonly<Record<string, Condition>> = {
  '25006': 'read-only',
  '53100': 'full',
  '53200': 'full',
  '53300': 'unreachable',
  '53400': 'full', // configuration_limit_exceeded
  '58030': 'io',
}
const conditionsByClass: Readonly<Record<string, Condition>> = {
  '08': 'unreachable',
  '53': 'full',
  '58': 'io',
}
const socketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
])
const connectionMessages =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable|Client was closed|connection error/i

/** The condition `error` reports, or undefined for an error of the statement itself. */
export function postgresCondition(error: unknown): Condition | undefined {
  if (error instanceof BackendUnavailableError) return error.condition
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  if (typeof code === 'string') {
    if (socketCodes.has(code)) return 'unreachable'
    const condition =
      conditionsByCode[code] ??
      (code.startsWith('57P') ? 'unreachable' : conditionsByClass[code.slice(0, 2)])
    if (condition !== undefined) return condition
  }
  if (typeof message !== 'string') return undefined
  if (/Query read timeout/i.test(message)) return 'stalled'
  return connectionMessages.test(message) ? 'unreachable' : undefined
}

/** True when `error` says the database cannot serve now (as opposed to a bad statement). */
export function isUnavailable(error: unknown): boolean {
  return postgresCondition(error) !== undefined
}

/** `error` as thrown to callers: what the database cannot serve becomes BackendUnavailableError. */
export function unavailableOr(error: unknown): unknown {
  return wrapUnavailable('postgres', postgresCondition, error)
}

/** Runs `work`, turning failures of the database into BackendUnavailableError. */
export async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    throw unavailableOr(error)
  }
}

/**
 * The last write each pool saw refused for a full disk or an I/O error, so that readiness,
 * which writes nothing, can tell: those show only in the writes (a lost or read-only database
 * shows in the readiness query itself).
 */
const quietConditions: ReadonlySet<Condition> = new Set(['full', 'io'])
const writeFailures = new WeakMap<pg.Pool, { atMs: number; error: BackendUnavailableError }>()

/** Records the outcome of a write on `pool`: its failure when the database refused it. */
export function noteWrite(pool: pg.Pool, error?: unknown): void {
  if (error === undefined) writeFailures.delete(pool)
  else if (error instanceof BackendUnavailableError && quietConditions.has(error.condition)) {
    writeFailures.set(pool, { atMs: Date.now(), error })
  }
}

/** The failure of a write on `pool` within the last `holdMs`, if any. */
export function recentWriteFailure(
  pool: pg.Pool,
  holdMs: number,
): BackendUnavailableError | undefined {
  const failure = writeFailures.get(pool)
  return failure !== undefined && Date.now() - failure.atMs < holdMs ? failure.error : undefined
}
