/**
 * Idempotency-Key on createPet over real HTTP, on each store: replay, reuse, in-flight, scoping,
 * and records written by an earlier version.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { NewPet } from '@petstore/types'
import Database from 'better-sqlite3'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Config } from '../../src/config.js'
import {
  call,
  errorOf,
  expectErrorBody,
  expectSpecResponse,
  heldCreate,
  newPet,
  petOf,
  petsOf,
  postJson,
  type Reply,
  startWithKey,
  type TestServer,
} from '../helpers.js'
import { inSchema, postgresUrl, schemaFactory, serviceAvailable } from '../services.js'

const postgres = await serviceAvailable('PostgreSQL', 'test/idempotency/idempotency.test.ts')
const schemas = schemaFactory()
afterAll(() => schemas.dropAll())

/** A store the server runs on, and a way to run SQL on its database behind the server's back. */
interface Backend {
  name: string
  available: boolean
  open(): Promise<{
    overrides: Partial<Config>
    /** Runs `text`; the rows it reads, if any. */
    sql(text: string, params: unknown[]): Promise<unknown[]>
    close(): Promise<void>
  }>
}

const backends: Backend[] = [
  {
    name: 'SQLite',
    available: true,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'petstore-idempotency-'))
      const dbPath = join(dir, 'petstore.db')
      return {
        overrides: { dbPath },
        async sql(text, params) {
          const db = new Database(dbPath)
          try {
            const statement = db.prepare(text.replace(/\$\d+/g, '?'))
            if (statement.reader) return statement.all(...params)
            statement.run(...params)
            return []
          } finally {
            db.close()
          }
        },
        async close() {
          rmSync(dir, { recursive: true, force: true })
        },
      }
    },
  },
  {
    name: 'PostgreSQL',
    available: postgres,
    async open() {
      const url = inSchema(postgresUrl, await schemas.create())
      const pool = new pg.Pool({ connectionString: url, max: 1 })
      return {
        overrides: { databaseUrl: url },
        async sql(text, params) {
          return (await pool.query(text, params)).rows
        },
        close: () => pool.end(),
      }
    },
  },
]

describe.each(backends.filter((backend) => backend.available))('on $name', (backend) => {
  let server: TestServer
  let auth: { authorization: string }
  let database: Awaited<ReturnType<Backend['open']>>

  beforeAll(async () => {
    database = await backend.open()
    ;({ server, auth } = await startWithKey('enterprise', database.overrides))
  })
  afterAll(async () => {
    await server.close()
    await database.close()
  })

  const countPets = async () => {
    let total = 0
    let url: string | undefined = `${server.api}/pets?limit=100`
    while (url !== undefined) {
      const page: Reply = await call(url, { headers: auth })
      total += petsOf(page).length
      const next = page.headers.get('link')?.match(/<([^>]+)>/)?.[1]
      url = next === undefined ? undefined : `${server.url}${next}`
    }
    return total
  }

  it('20 parallel identical requests create one pet and all answer with it', async () => {
    const before = await countPets()
    const replies = await Promise.all(
      Array.from({ length: 20 }, () =>
        postJson(`${server.api}/pets`, newPet({ name: 'Once' }), {
          ...auth,
          'idempotency-key': '"parallel-1"',
        }),
      ),
    )
    for (const reply of replies) {
      expectSpecResponse(reply, 'createPet')
      expect(reply.status).toBe(201)
    }
    const ids = new Set(replies.map((reply) => petOf(reply).id))
    expect(ids.size).toBe(1)
    expect(
      replies.filter((reply) => reply.headers.get('idempotent-replayed') === 'true'),
    ).toHaveLength(19)
    expect(new Set(replies.map((reply) => reply.headers.get('location'))).size).toBe(1)
    expect(await countPets()).toBe(before + 1)
  })

  it('replays with the same status, body and Location, bare or quoted key', async () => {
    const first = await postJson(`${server.api}/pets`, newPet(), {
      ...auth,
      'idempotency-key': 'bare-key',
    })
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    const again = await postJson(
      `${server.api}/pets`,
      { status: 'available', ...newPet() } satisfies NewPet,
      { ...auth, 'idempotency-key': '"bare-key"' },
    )
    expectSpecResponse(again, 'createPet')
    expect([again.status, again.body, again.headers.get('location')]).toEqual([
      201,
      first.body,
      first.headers.get('location'),
    ])
    expect(again.headers.get('idempotent-replayed')).toBe('true')
  })

  it('the same key with a different body is 422 and creates nothing', async () => {
    await postJson(`${server.api}/pets`, newPet(), { ...auth, 'idempotency-key': 'reuse' })
    const before = await countPets()
    const reused = await postJson(`${server.api}/pets`, newPet({ categoryId: 2 }), {
      ...auth,
      'idempotency-key': 'reuse',
    })
    expectSpecResponse(reused, 'createPet')
    expectErrorBody(reused, 'idempotency_key_reused')
    expect(await countPets()).toBe(before)
  })

  it('keys are scoped to the API key', async () => {
    const other = { authorization: `Bearer ${await server.issueKey({ plan: 'pro' })}` }
    const mine = await postJson(`${server.api}/pets`, newPet({ name: 'A' }), {
      ...auth,
      'idempotency-key': 'shared',
    })
    const theirs = await postJson(`${server.api}/pets`, newPet({ name: 'A' }), {
      ...other,
      'idempotency-key': 'shared',
    })
    expect(theirs.status).toBe(201)
    expect(theirs.headers.get('idempotent-replayed')).toBeNull()
    expect(petOf(theirs).id).not.toBe(petOf(mine).id)
  })

  it('a failed request releases its key so a corrected retry runs', async () => {
    const bad = await postJson(`${server.api}/pets`, newPet({ name: '' }), {
      ...auth,
      'idempotency-key': 'fix-me',
    })
    expectErrorBody(bad, 'invalid_request')
    const fixed = await postJson(`${server.api}/pets`, newPet({ name: 'Fixed' }), {
      ...auth,
      'idempotency-key': 'fix-me',
    })
    expect(fixed.status).toBe(201)
    expect(fixed.headers.get('idempotent-replayed')).toBeNull()
  })

  it.each(['', '""', 'has space', '"unterminated', 'x'.repeat(256), 'é'])(
    'a malformed key %j is 400',
    async (key) => {
      const reply = await postJson(`${server.api}/pets`, newPet(), {
        ...auth,
        'idempotency-key': key,
      })
      expectSpecResponse(reply, 'createPet')
      expectErrorBody(reply, 'invalid_request')
      expect(errorOf(reply).message).toContain('Idempotency-Key')
    },
  )

  it('409 while the first request with the key is still in flight', async () => {
    const pet = newPet({ name: 'Slow' })
    const body = JSON.stringify(pet)
    // Answered 100 Continue once the server has the headers; the key's claim (a store write)
    // may still be on its way, so the duplicate waits until the record is there.
    const held = await heldCreate(server.url, { ...auth, 'idempotency-key': 'in-flight' }, pet)
    const claims = () =>
      database.sql('SELECT 1 FROM idempotency_records WHERE key = $1', ['in-flight'])
    await expect.poll(async () => (await claims()).length, { timeout: 10_000 }).toBe(1)
    const duplicate = await postJson(`${server.api}/pets`, body, {
      ...auth,
      'idempotency-key': 'in-flight',
    })
    expectSpecResponse(duplicate, 'createPet')
    expectErrorBody(duplicate, 'idempotency_key_in_progress')
    const first = await held.finish()
    expect(first.status).toBe(201)
    const replay = await postJson(`${server.api}/pets`, body, {
      ...auth,
      'idempotency-key': 'in-flight',
    })
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(replay.body).toEqual(JSON.parse(first.body))
  })

  it('a client that goes away in flight releases its key, so a retry runs', async () => {
    const pet = newPet({ name: 'Cut off' })
    const held = await heldCreate(server.url, { ...auth, 'idempotency-key': 'cut-off' }, pet)
    const claims = () =>
      database.sql('SELECT 1 FROM idempotency_records WHERE key = $1', ['cut-off'])
    await expect.poll(async () => (await claims()).length, { timeout: 10_000 }).toBe(1)
    held.abandon()
    await expect.poll(async () => (await claims()).length, { timeout: 10_000 }).toBe(0)
    const retry = await postJson(`${server.api}/pets`, pet, {
      ...auth,
      'idempotency-key': 'cut-off',
    })
    expect(retry.status).toBe(201)
    expect(retry.headers.get('idempotent-replayed')).toBeNull()
  })

  it('replays a record as an earlier version stored it: its status, body and headers', async () => {
    const pet = newPet({ name: 'Stored' })
    const first = await postJson(`${server.api}/pets`, pet, { ...auth, 'idempotency-key': 'old' })
    expect(first.status).toBe(201)
    // The record of another pet, in the format every earlier version wrote: what is replayed is
    // what the record says, not what the server would answer today.
    const other = await postJson(`${server.api}/pets`, newPet({ name: 'Other' }), auth)
    const response = JSON.stringify({
      status: 201,
      body: JSON.stringify(petOf(other)),
      headers: { location: other.headers.get('location') },
    })
    await database.sql('UPDATE idempotency_records SET response = $1 WHERE key = $2', [
      response,
      'old',
    ])
    const again = await postJson(`${server.api}/pets`, pet, { ...auth, 'idempotency-key': 'old' })
    expectSpecResponse(again, 'createPet')
    expect([again.status, again.body, again.headers.get('location')]).toEqual([
      201,
      other.body,
      other.headers.get('location'),
    ])
    expect(again.headers.get('idempotent-replayed')).toBe('true')
  })

  it('answers 500 to a record that holds no create answer, and creates nothing', async () => {
    const pet = newPet({ name: 'Broken' })
    await postJson(`${server.api}/pets`, pet, { ...auth, 'idempotency-key': 'broken' })
    const response = JSON.stringify({ status: 200, body: '{}', headers: {} })
    await database.sql('UPDATE idempotency_records SET response = $1 WHERE key = $2', [
      response,
      'broken',
    ])
    const before = await countPets()
    const again = await postJson(`${server.api}/pets`, pet, {
      ...auth,
      'idempotency-key': 'broken',
    })
    expectSpecResponse(again, 'createPet')
    expectErrorBody(again, 'internal_error')
    expect(await countPets()).toBe(before)
  })
})
