/**
 * The built server as an operator runs it (`node dist/server.js`, configured by env): start-up
 * messages, logs, durability under SIGKILL, draining on SIGTERM, and fail-fast configuration.
 */
import { spawn, spawnSync } from 'node:child_process'
import { linkSync, mkdtempSync, rmSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Pet } from '@petstore/types'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueApiKey } from '../src/auth/api-key.js'
import { openSqliteStore } from '../src/store/sqlite/index.js'
import { requireBuiltServer, serverJs, startChild } from './child-server.js'
import { errorOf, heldCreate, newPet, petOf, postJson, type Reply } from './helpers.js'

let dir: string
let count = 0

beforeAll(() => {
  requireBuiltServer()
  dir = mkdtempSync(join(tmpdir(), 'petstore-server-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function keyFor(dbPath: string): Promise<{ authorization: string; raw: string }> {
  const store = openSqliteStore(dbPath)
  const { rawKey } = await issueApiKey(store.keys, {
    plan: 'enterprise',
    perMinute: 100_000,
    perDay: 100_000,
  })
  await store.close()
  return { authorization: `Bearer ${rawKey}`, raw: rawKey }
}

const newDb = () => join(dir, `db-${++count}`, 'petstore.db')

describe('running', () => {
  it('says where it listens, where the docs are and how to create a key; logs carry request ids, never keys', async () => {
    const dbPath = newDb()
    const child = await startChild({ PETSTORE_DB: dbPath })
    expect(child.stdout()).toContain(`${child.url}/docs`)
    expect(child.stdout()).toContain('petstore keys create --plan free')
    const { authorization, raw } = await keyFor(dbPath)
    const reply = await fetch(`${child.url}/v1/pets`, {
      headers: { authorization, 'x-request-id': 'trace-me-42' },
    })
    expect(reply.status).toBe(200)
    await fetch(`${child.url}/v1/pets`, { headers: { authorization: `Bearer ${raw}x` } })
    child.process.kill('SIGTERM')
    expect((await child.exited).code).toBe(0)
    const lines = child
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines.some((line) => line.requestId === 'trace-me-42' && line.statusCode === 200)).toBe(
      true,
    )
    expect(child.stdout()).not.toContain(raw)
    expect(child.stdout().toLowerCase()).not.toContain('bearer')
  })

  it('loses no acknowledged pet when killed with SIGKILL right after its 201s', async () => {
    const dbPath = newDb()
    const child = await startChild({ PETSTORE_DB: dbPath })
    const { authorization } = await keyFor(dbPath)
    const created: Pet[] = []
    await Promise.all(
      Array.from({ length: 4 }, async (_, lane) => {
        for (let index = 0; index < 10; index++) {
          const reply = await postJson(
            `${child.url}/v1/pets`,
            newPet({ name: `durable ${lane}-${index}` }),
            { authorization },
          )
          expect(reply.status).toBe(201)
          created.push(petOf(reply))
        }
      }),
    )
    child.process.kill('SIGKILL')
    expect((await child.exited).signal).toBe('SIGKILL')
    const store = openSqliteStore(dbPath)
    for (const pet of created) expect(await store.pets.get(pet.id)).toMatchObject(pet)
    await store.close()
  })

  it('drains an in-flight request on SIGTERM, then exits 0', async () => {
    const dbPath = newDb()
    const child = await startChild({ PETSTORE_DB: dbPath })
    const { authorization } = await keyFor(dbPath)
    const held = await heldCreate(child.url, { authorization }, newPet({ name: 'Drained' }))
    child.process.kill('SIGTERM')
    await child.waitFor('draining')
    // Kept alive otherwise: the client would hold the closing server open.
    expect(await held.finish()).toMatchObject({ status: 201, connection: 'close' })
    expect((await child.exited).code).toBe(0)
    const store = openSqliteStore(dbPath)
    const stored = JSON.parse((await store.pets.list({ limit: 10 })).json) as Pet[]
    expect(stored.map((pet) => pet.name)).toEqual(['Drained'])
    await store.close()
  })
})

describe('a keep-alive connection idle when SIGTERM comes', () => {
  it('still gets the answer to a request sent on it after the listener closed', async () => {
    const dbPath = newDb()
    const child = await startChild({ PETSTORE_DB: dbPath })
    const { port } = new URL(child.url)
    const socket = connect(Number(port), '127.0.0.1')
    const answers = readAnswers(socket)
    const request = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'
    socket.write(request)
    expect(await answers.next()).toMatch(/^HTTP\/1\.1 200 /)
    child.process.kill('SIGTERM')
    // Once new connections are refused, server.close() has run: the idle one is still open.
    while (await connects(Number(port))) await sleep(10)
    socket.write(request)
    // Answered as any request is, with the connection's end announced; not a bare 503.
    const late = await answers.next()
    expect(late).toMatch(/^HTTP\/1\.1 200 /)
    expect(late).toMatch(/\r\nconnection: close\r\n/i)
    expect(late).toMatch(/\r\nx-request-id: \S+\r\n/i)
    expect((await child.exited).code).toBe(0)
  })
})

describe('a full disk', () => {
  it('answers 503, reads not ready, logs one line, and keeps every acknowledged pet', async () => {
    const dbPath = newDb()
    const child = await startChild({ PETSTORE_DB: dbPath }, 2000)
    const { authorization } = await keyFor(dbPath)
    const created: Pet[] = []
    let refused: Reply | undefined
    for (let index = 0; index < 5000 && refused === undefined; index++) {
      const reply = await postJson(
        `${child.url}/v1/pets`,
        newPet({ name: `${index} ${'x'.repeat(90)}` }),
        { authorization },
      )
      if (reply.status === 201) created.push(petOf(reply))
      else refused = reply
    }
    expect(created.length).toBeGreaterThan(0)
    expect(refused?.status).toBe(503)
    expect(refused && errorOf(refused).code).toBe('service_unavailable')
    for (let index = 0; index < 20; index++) {
      const reply = await postJson(`${child.url}/v1/pets`, newPet({ name: 'late' }), {
        authorization,
      })
      expect(reply.status).toBe(503)
    }
    const ready = await fetch(`${child.url}/readyz`)
    expect(ready.status).toBe(503)
    child.process.kill('SIGTERM')
    await child.exited
    const faults = child
      .stdout()
      .split('\n')
      .filter((line) => line.includes('the store cannot serve'))
    expect(faults).toHaveLength(1)
    expect(child.stdout()).not.toContain('"stack"')
    const store = openSqliteStore(dbPath)
    for (const pet of created) expect(await store.pets.get(pet.id)).toMatchObject(pet)
    await store.close()
  })
})

describe('configuration', () => {
  it.each([
    ['the server', [serverJs]],
    ['the CLI', [join(dirname(serverJs), 'cli', 'main.js'), 'keys', 'list']],
  ])('stops %s with one clear line and exit 1 when PETSTORE_DB cannot be made', (_, args) => {
    // mkdir under /proc answers ENOENT for ever: Node's recursive mkdir spun on it at 100% CPU.
    const run = spawnSync(process.execPath, args, {
      env: { PATH: process.env.PATH ?? '', PETSTORE_DB: '/proc/x/y.db', PORT: '0' },
      encoding: 'utf8',
      timeout: 15_000,
    })
    expect(run.status).toBe(1)
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      "petstore: cannot open the database /proc/x/y.db: ENOENT: no such file or directory, mkdir '/proc/x'",
    ])
  })

  it('refuses a second server on the same SQLite file, by any name, with one clear line', async () => {
    const dbPath = newDb()
    const first = await startChild({ PETSTORE_DB: dbPath })
    // `ln a.db b.db`: before the lock was the file's own, both served and corrupted it.
    const hardLink = `${dbPath}.link.db`
    linkSync(dbPath, hardLink)
    for (const path of [dbPath, hardLink]) {
      const second = spawn(process.execPath, [serverJs], {
        env: { PATH: process.env.PATH ?? '', PETSTORE_DB: path, PORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let stderr = ''
      second.stderr.on('data', (chunk) => {
        stderr += chunk
      })
      const code = await new Promise<number | null>((resolve) => second.on('exit', resolve))
      expect(code).toBe(1)
      expect(stderr.trimEnd().split('\n')).toHaveLength(1)
      expect(stderr).toContain(`another petstore server is using ${path}`)
    }
    // The first one still serves, and the CLI still opens the file beside it.
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200)
    await keyFor(dbPath)
    first.process.kill('SIGTERM')
    expect((await first.exited).code).toBe(0)
  })

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ PETSTORE_CORS_ORIGINS: 'not an origin' }, 'PETSTORE_CORS_ORIGINS'],
    [{ PETSTORE_BAN_THRESHOLD: '0' }, 'PETSTORE_BAN_THRESHOLD'],
    [{ PETSTORE_BAN_SECONDS: '-5' }, 'PETSTORE_BAN_SECONDS'],
    [{ DATABASE_URL: 'mysql://db' }, 'DATABASE_URL'],
    [{ PETSTORE_CURSOR_SECRET: 'short' }, 'PETSTORE_CURSOR_SECRET'],
  ])('%j fails start with one clear line and a non-zero exit', async (env, name) => {
    const child = spawn(process.execPath, [serverJs], {
      env: { PATH: process.env.PATH ?? '', PETSTORE_DB: newDb(), PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    let stdout = ''
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    child.stdout.on('data', (chunk) => {
      stdout += chunk
    })
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    expect(code).not.toBe(0)
    expect(stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(stderr).toContain(name)
    expect(stderr).not.toMatch(/\n\s+at /)
    expect(stdout).toBe('')
  })
})

/** Whether a new connection to `port` is accepted (and then closed). */
function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(port, '127.0.0.1')
    probe.once('connect', () => {
      probe.destroy()
      resolve(true)
    })
    probe.once('error', () => resolve(false))
  })
}

/** The HTTP answers arriving on `socket`, one head at a time; rejects if it breaks or ends first. */
function readAnswers(socket: Socket): { next(): Promise<string> } {
  let buffered = ''
  let failure: Error | undefined
  const waiting: (() => void)[] = []
  const wake = () => {
    for (const resolve of waiting.splice(0)) resolve()
  }
  socket.on('data', (chunk) => {
    buffered += chunk
    wake()
  })
  socket.on('error', (error) => {
    failure = error
    wake()
  })
  socket.on('end', () => {
    failure ??= new Error(`the connection ended; it had sent: ${JSON.stringify(buffered)}`)
    wake()
  })
  return {
    async next() {
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n')
        const length = Number(/content-length: (\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0)
        if (end >= 0 && buffered.length >= end + 4 + length) {
          const answer = buffered.slice(0, end + 4 + length)
          buffered = buffered.slice(end + 4 + length)
          return answer
        }
        if (failure) throw failure
        await new Promise<void>((resolve) => waiting.push(resolve))
      }
    },
  }
}
