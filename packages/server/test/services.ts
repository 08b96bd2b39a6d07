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
