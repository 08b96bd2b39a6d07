/**
 * The connection pool of the PostgreSQL store and what counts as "PostgreSQL is unreachable".
 * Every wait is bounded (connecting, each query), so a request never hangs on a database that
 * went away: it fails fast with BackendUnavailableError, which the error boundary answers with
 * 503. The pool replaces broken connections by itself, so service returns once the database
 * does, without a restart.
 * @see https://node-postgres.com/apis/pool
 */
import pg from 'pg'
import { BackendUnavailableError } from '../../errors.js'
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

const connectionCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up)
  '53300', // too_many_connections
])
const connectionMessages =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable|Client was closed|connection error/i

/** True when `error` says the database cannot be reached (as opposed to a bad statement). */
export function isConnectionError(error: unknown): boolean {
  if (error instanceof BackendUnavailableError) return true
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  if (typeof code === 'string' && (connectionCodes.has(code) || code.startsWith('08'))) return true
  return typeof message === 'string' && connectionMessages.test(message)
}

/** `error` as thrown to callers: connection failures become BackendUnavailableError. */
export function unavailableOr(error: unknown): unknown {
  return isConnectionError(error) && !(error instanceof BackendUnavailableError)
    ? new BackendUnavailableError('postgres', { cause: error })
    : error
}

/** Runs `work`, turning connection failures into BackendUnavailableError. */
export async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    throw unavailableOr(error)
  }
}
