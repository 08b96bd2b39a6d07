/**
 * The shared PostgreSQL and Redis the suites run against (127.0.0.1:5432 database `test`,
 * 127.0.0.1:6379; DATABASE_URL and REDIS_URL override), each test isolated in a fresh schema or
 * key prefix. A missing service fails the run in CI; elsewhere its suites are skipped with a loud
 * line on stderr saying which, so a skip is never silent.
 */
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { Socket } from 'node:net'
import pg from 'pg'

export const postgresUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
export const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = new Socket()
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(1000, () => done(false))
    socket.once('error', () => done(false))
    socket.connect(Number(port), hostname.replace(/^\[|\]$/g, ''), () => done(true))
  })
}

/**
 * True when `service` answers; false (after a loud warning) when it does not and CI is not set;
 * throws in CI, where nothing may be skipped.
 */
export async function serviceAvailable(
  service: 'PostgreSQL' | 'Redis',
  suite: string,
): Promise<boolean> {
  const url = service === 'PostgreSQL' ? postgresUrl : redisUrl
  if (await reachable(url)) return true
  return missing(`${service} is not reachable at ${url}`, suite)
}

/** Like serviceAvailable, for suites that start redis-server processes of their own. */
export function redisServerInstalled(suite: string): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return missing('redis-server is not installed', suite)
  }
}

/** Like serviceAvailable, for suites that run `command` (an installed program) themselves. */
export function commandInstalled(command: string, suite: string): boolean {
  try {
    execFileSync(command, ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return missing(`${command} is not installed`, suite)
  }
}

function missing(line: string, suite: string): false {
  if (process.env.CI === 'true') throw new Error(`${line}: CI needs it (see .ci/run)`)
  process.stderr.write(
    `\n!!!!!!!! SKIPPED ${suite}: ${line}. Start it (see README) to run this suite. !!!!!!!!\n\n`,
  )
  return false
}

/** A unique, valid identifier for a schema or a key prefix. */
export const uniqueName = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`

/** Creates fresh schemas and drops them all at the end. */
export function schemaFactory() {
  const admin = new pg.Pool({ connectionString: postgresUrl, max: 2 })
  const created: string[] = []
  return {
    async create(): Promise<string> {
      const schema = uniqueName('t')
      await admin.query(`CREATE SCHEMA ${schema}`)
      created.push(schema)
      return schema
    },
    async dropAll(): Promise<void> {
      for (const schema of created.splice(0)) await admin.query(`DROP SCHEMA ${schema} CASCADE`)
      await admin.end()
    },
  }
}

export interface PrivateRole {
  /** The shared database's URL as this role, working in `schema` (set in `options`). */
  url: string
  /** Makes the role's new sessions read-only (a standby, a read-only database) or writable. */
  setReadOnly(on: boolean): Promise<void>
  /** Ends every session of the role, so the next ones start with its current settings. */
  endSessions(): Promise<void>
  /** Drops the role and what it owns. */
  drop(): Promise<void>
}

/** `url` with `search_path` set to `schema`, as a server or the CLI is given it in DATABASE_URL. */
export function inSchema(url: string, schema: string): string {
  const withSchema = new URL(url)
  withSchema.searchParams.set('options', `-c search_path=${schema}`)
  return withSchema.toString()
}

/** A login role of the test's own that may create in `schema`, to break without harming others. */
export async function privateRole(schema: string): Promise<PrivateRole> {
  const role = uniqueName('r')
  const admin = new pg.Client({ connectionString: postgresUrl })
  await admin.connect()
  await admin.query(`CREATE ROLE ${role} LOGIN; GRANT USAGE, CREATE ON SCHEMA ${schema} TO ${role}`)
  const url = new URL(postgresUrl)
  url.username = role
  return {
    url: inSchema(url.toString(), schema),
    async setReadOnly(on) {
      await admin.query(
        on
          ? `ALTER ROLE ${role} SET default_transaction_read_only = on`
          : `ALTER ROLE ${role} RESET default_transaction_read_only`,
      )
    },
    async endSessions() {
      await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1',
        [role],
      )
    },
    async drop() {
      await admin.query(`DROP OWNED BY ${role}; DROP ROLE ${role}`)
      await admin.end()
    },
  }
}
