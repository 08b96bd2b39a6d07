/**
 * `petstore serve`, the bin an npm install links, started as a child process: it serves /v1 and
 * the docs it advertises, reads the same environment as `pnpm start`, and stops on SIGTERM.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { binJs, type Child, requireBuiltServer, startBin } from '../child-server.js'
import { call, expectErrorBody } from '../helpers.js'

let dir: string
const children: Child[] = []

beforeAll(() => {
  requireBuiltServer()
  dir = mkdtempSync(join(tmpdir(), 'petstore-serve-'))
})
afterAll(() => {
  for (const child of children) child.process.kill('SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

const env = { PATH: process.env.PATH ?? '' }

function petstore(args: string[], extraEnv: Record<string, string> = {}) {
  return spawnSync(process.execPath, [binJs, ...args], {
    env: { ...env, ...extraEnv },
    encoding: 'utf8',
  })
}

async function serve(args: string[], extraEnv: Record<string, string> = {}): Promise<Child> {
  const child = await startBin(['serve', ...args], extraEnv)
  children.push(child)
  return child
}

function logLines(child: Child): Record<string, unknown>[] {
  return child
    .stdout()
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

it('petstore --help lists serve', () => {
  const help = petstore(['--help'])
  expect(help.status).toBe(0)
  expect(help.stderr).toMatch(
    /^ {2}serve \[--port N\] \[--host H\] \[--db FILE\] \[--workers N\]$/m,
  )
})

it('serves /v1 and the docs its start log advertises, then stops on SIGTERM', async () => {
  const dbPath = join(dir, 'flags', 'petstore.db')
  const child = await serve(['--port', '0', '--host', '127.0.0.1', '--db', dbPath])
  const started = logLines(child).find((line) => typeof line.docs === 'string')
  expect(started).toMatchObject({ url: `${child.url}/v1`, docs: `${child.url}/docs` })
  expect(started?.db).toContain(dbPath)

  const docs = await call(String(started?.docs))
  expect([docs.status, docs.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8'])
  expect(docs.text).toContain('Pet Adoption Service')
  const shipped = readFileSync(
    join(import.meta.dirname, '..', '..', '..', 'docs', 'dist', 'index.html'),
    'utf8',
  )
  expect(docs.text).toBe(shipped)

  const created = petstore(['keys', 'create', '--plan', 'free'], { PETSTORE_DB: dbPath })
  expect(created.status).toBe(0)
  const authorization = `Bearer ${created.stdout.trim()}`
  const pets = await call(`${child.url}/v1/pets`, { headers: { authorization } })
  expect([pets.status, pets.body]).toEqual([200, []])
  expect((await call(`${child.url}/v1/openapi.json`)).status).toBe(200)

  child.process.kill('SIGTERM')
  expect((await child.exited).code).toBe(0)
})

it('is configured by the same environment as pnpm start, and does not advertise docs it lacks', async () => {
  const dbPath = join(dir, 'env', 'petstore.db')
  const emptyDocs = join(dir, 'no-docs')
  mkdirSync(emptyDocs)
  const child = await serve([], { PETSTORE_DB: dbPath, PETSTORE_DOCS_DIR: emptyDocs })
  expect(existsSync(dbPath)).toBe(true)
  expect(child.stdout()).not.toContain(`${child.url}/docs"`)
  expect(logLines(child).some((line) => line.docs !== undefined)).toBe(false)
  expect(logLines(child).find((line) => line.docsDir === emptyDocs)?.level).toBe(40)
  expectErrorBody(await call(`${child.url}/docs`), 'not_found')
  child.process.kill('SIGTERM')
  expect((await child.exited).code).toBe(0)
})

it('stops with one line and exit 1 on a bad configuration, before listening', () => {
  const result = petstore(['serve', '--db', join(dir, 'bad', 'petstore.db')], {
    PETSTORE_BAN_SECONDS: 'forever',
  })
  expect(result.status).toBe(1)
  expect(result.stdout).toBe('')
  expect(result.stderr.trimEnd().split('\n')).toEqual([
    expect.stringContaining('PETSTORE_BAN_SECONDS'),
  ])
})

it.each([
  [['--workers', '2'], 'the embedded SQLite store is single-instance'],
  [['--workers', 'two'], 'PETSTORE_WORKERS must be an integer'],
  [['--workers', '0'], 'PETSTORE_WORKERS must be an integer'],
])('refuses serve %j with one line and exit 1, before listening', (args, line) => {
  const result = petstore(['serve', '--db', join(dir, 'workers', 'petstore.db'), ...args])
  expect(result.status).toBe(1)
  expect(result.stdout).toBe('')
  expect(result.stderr.trimEnd().split('\n')).toEqual([expect.stringContaining(line)])
})
