/** The operator CLI end to end on a real database file, in process and as `dist/cli/main.js`. */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../src/cli/run.js'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import { call, runCliWith, startTestServer } from '../helpers.js'

const mainJs = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'cli', 'main.js')
let dir: string
let count = 0

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-cli-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const cli = (args: string[], dbPath: string) => runCliWith(args, { PETSTORE_DB: dbPath })

const newDb = () => join(dir, `cli-${++count}.db`)

describe('keys', () => {
  it('create prints the raw key alone on stdout; list and revoke manage it; a revoked key is 401', async () => {
    const dbPath = newDb()
    const created = await cli(['keys', 'create', '--plan', 'pro', '--name', 'ci'], dbPath)
    expect(created.code).toBe(0)
    expect(created.stdout).toMatch(/^psk_live_[0-9a-f]{48}\n$/)
    expect(created.stderr).toContain('created key key_')
    const rawKey = created.stdout.trim()

    const listed = await cli(['keys', 'list', '--json'], dbPath)
    const keys = JSON.parse(listed.stdout) as Record<string, unknown>[]
    expect(keys).toEqual([
      {
        id: expect.stringMatching(/^key_/),
        name: 'ci',
        plan: 'pro',
        perMinute: 300,
        perDay: 10000,
        createdAt: expect.any(String),
        revokedAt: null,
      },
    ])
    expect(listed.stdout).not.toContain(rawKey)
    const table = await cli(['keys', 'list'], dbPath)
    expect(table.stdout).toContain('ci')
    expect(table.stdout).toContain('pro')

    const server = await startTestServer({ dbPath })
    try {
      const auth = { authorization: `Bearer ${rawKey}` }
      expect((await call(`${server.api}/pets`, { headers: auth })).status).toBe(200)
      const revoked = await cli(['keys', 'revoke', String(keys[0]?.id)], dbPath)
      expect(revoked.code).toBe(0)
      expect(revoked.stdout).toBe('')
      const after = await call(`${server.api}/pets`, { headers: auth })
      expect(after.status).toBe(401)
      expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"')
    } finally {
      await server.close()
    }
    const relisted = JSON.parse((await cli(['keys', 'list', '--json'], dbPath)).stdout) as {
      revokedAt: string | null
    }[]
    expect(relisted[0]?.revokedAt).toEqual(expect.any(String))
  })

  it('enterprise keys carry their own numbers, even a day below the minute, and say what it means', async () => {
    const dbPath = newDb()
    const created = await cli(
      ['keys', 'create', '--plan', 'enterprise', '--per-minute', '5000', '--per-day', '100'],
      dbPath,
    )
    expect(created.code).toBe(0)
    expect(created.stderr).toContain(
      "note: the day's 100 is below the minute's 5000: no minute can use more than 100",
    )
    const above = await cli(
      ['keys', 'create', '--plan', 'enterprise', '--per-minute', '1', '--per-day', '1441'],
      dbPath,
    )
    expect(above.code).toBe(0)
    expect(above.stderr).toContain("the day's limit is never reached")
    const consistent = await cli(
      ['keys', 'create', '--plan', 'enterprise', '--per-minute', '1', '--per-day', '1440'],
      dbPath,
    )
    expect([consistent.code, consistent.stderr.includes('note:')]).toEqual([0, false])
    const [key] = JSON.parse((await cli(['keys', 'list', '--json'], dbPath)).stdout) as {
      perMinute: number
      perDay: number
    }[]
    expect(key).toMatchObject({ plan: 'enterprise', perMinute: 5000, perDay: 100, name: null })
  })

  it.each([
    [['keys', 'create'], '--plan'],
    [['keys', 'create', '--plan', 'gold'], '--plan must be one of'],
    [['keys', 'create', '--plan', 'enterprise', '--per-minute', '5'], 'needs both'],
    [
      ['keys', 'create', '--plan', 'free', '--per-minute', '5', '--per-day', '9'],
      'enterprise only',
    ],
    [
      ['keys', 'create', '--plan', 'enterprise', '--per-minute', '0', '--per-day', '9'],
      '--per-minute',
    ],
    [
      ['keys', 'create', '--plan', 'enterprise', '--per-minute', '1.5', '--per-day', '9'],
      '--per-minute',
    ],
    [['keys', 'create', '--plan', 'free', '--bogus'], 'bogus'],
    [['keys', 'create', '--plan', 'free', '--plan', 'pro'], '--plan is given more than once'],
    [['keys', 'create', '--plan=free', '--plan', 'free'], '--plan is given more than once'],
    [['keys', 'list', '--json', '--json'], '--json is given more than once'],
    [['serve', '--port', '1', '--port', '2'], '--port is given more than once'],
    [['keys', 'create', '--plan', 'free', '--name', 'ci\nx  free'], '(U+000A)'],
    [['keys', 'create', '--plan', 'free', '--name', '\u001b[2Jhi'], '(U+001B)'],
    [['keys', 'create', '--plan', 'free', '--name', 'x\u009b31m'], '(U+009B)'],
    [['keys', 'create', '--plan', 'free', '--name', 'x\u007f'], '(U+007F)'],
    [['keys', 'create', '--plan', 'free', '--name', 'x\ud800'], 'lone surrogates'],
    [['keys', 'create', '--plan', 'free', '--name', '🐕'.repeat(101)], '1 to 100 characters'],
    [['keys', 'revoke'], 'id'],
    [['keys', 'frobnicate'], 'frobnicate'],
    [['keys'], 'subcommand'],
    [['seed'], '--pets'],
    [['seed', '--pets', 'many'], '--pets'],
    [['launch'], 'launch'],
    [['serve', '--port', 'http'], '--port'],
    [['serve', '--port', '70000'], '--port'],
    [['serve', '--listen'], 'listen'],
    [['serve', 'now'], 'now'],
  ])('%j is a one-line usage error, exit 2', async (args, message) => {
    const dbPath = newDb()
    const result = await cli(args, dbPath)
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(result.stderr).toContain(message)
    expect(existsSync(dbPath)).toBe(false)
  })

  it('takes a name of 100 code points, spaces and non-ASCII included', async () => {
    const dbPath = newDb()
    const name = `Shelter ${'🐕'.repeat(92)}`
    expect((await cli(['keys', 'create', '--plan', 'free', '--name', name], dbPath)).code).toBe(0)
    const [key] = JSON.parse((await cli(['keys', 'list', '--json'], dbPath)).stdout) as {
      name: string
    }[]
    expect(key?.name).toBe(name)
  })

  it('lists a name stored with control characters escaped, one row per key', async () => {
    const dbPath = newDb()
    const store = openSqliteStore(dbPath)
    await store.keys.create({
      hash: 'd'.repeat(64),
      name: 'old\nkey_forged  free\u001b[2J',
      plan: 'free',
      perMinute: null,
      perDay: null,
    })
    await store.close()
    const listed = await cli(['keys', 'list'], dbPath)
    const lines = listed.stdout.trimEnd().split('\n')
    expect(lines).toHaveLength(2)
    expect(lines[1]).toContain('old\\u000akey_forged  free\\u001b[2J')
  })

  it('prints the usage and exits 2 without a command, 0 when asked for help', async () => {
    const bare = await cli([], newDb())
    expect([bare.code, bare.stdout]).toEqual([2, ''])
    expect(bare.stderr).toMatch(/^usage: petstore <command>\n/)
    for (const help of ['--help', '-h', 'help']) {
      const asked = await cli([help], newDb())
      expect([asked.code, asked.stderr.startsWith('usage: petstore')], help).toEqual([0, true])
    }
  })

  it('revoking an unknown id fails with exit 1', async () => {
    const result = await cli(['keys', 'revoke', 'key_nope'], newDb())
    expect([result.code, result.stdout]).toEqual([1, ''])
    expect(result.stderr).toContain('key_nope')
  })
})

it('fails with one line, exit 1, on bad configuration', async () => {
  for (const env of [
    { PETSTORE_DB: newDb(), LOG_LEVEL: 'loud' },
    { PETSTORE_DB: newDb(), DATABASE_URL: 'postgres://db/x' },
  ]) {
    let stderr = ''
    const code = await runCli(['keys', 'list'], {
      env,
      stdout: { write: () => true },
      stderr: { write: (text: string) => (stderr += text) },
    })
    expect(code).toBe(1)
    expect(stderr.trimEnd().split('\n')).toHaveLength(1)
  }
})

it('seed creates demo pets the API serves', async () => {
  const dbPath = newDb()
  expect((await cli(['seed', '--pets', '25'], dbPath)).code).toBe(0)
  const server = await startTestServer({ dbPath })
  try {
    const key = await server.issueKey({ plan: 'free' })
    const page = await call(`${server.api}/pets?limit=100`, {
      headers: { authorization: `Bearer ${key}` },
    })
    expect(page.body).toHaveLength(25)
  } finally {
    await server.close()
  }
})

it('the built CLI writes only the key to stdout', () => {
  if (!existsSync(mainJs))
    throw new Error('dist/cli/main.js is missing: run pnpm --filter @petstore/server build')
  const env = { PATH: process.env.PATH ?? '', PETSTORE_DB: newDb() }
  const created = spawnSync(process.execPath, [mainJs, 'keys', 'create', '--plan', 'free'], {
    env,
    encoding: 'utf8',
  })
  expect(created.status).toBe(0)
  expect(created.stdout).toMatch(/^psk_live_[0-9a-f]{48}\n$/)
  const bad = spawnSync(process.execPath, [mainJs, 'keys', 'create', '--plan', 'gold'], {
    env,
    encoding: 'utf8',
  })
  expect([bad.status, bad.stdout]).toEqual([2, ''])
  expect(bad.stderr.trimEnd().split('\n')).toHaveLength(1)
})
