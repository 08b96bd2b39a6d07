import { setTimeout as sleep } from 'node:timers/promises'
import type { Pet } from '@petstore/types'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { BackendUnavailableError } from '../../src/backend-failure.js'
import { postgresCondition } from '../../src/store/postgres/connection.js'
import { openPostgresStore } from '../../src/store/postgres/index.js'
import { postgresMigrations } from '../../src/store/postgres/migrations.js'
import { postgresUrl, privateRole, schemaFactory, serviceAvailable } from '../services.js'
import { storeConformance } from './conformance.js'

const available = await serviceAvailable('PostgreSQL', 'test/store/postgres.test.ts')

describe.runIf(available)('postgres', () => {
  const schemas = schemaFactory()
  afterAll(() => schemas.dropAll())
  const open = async (schema?: string) =>
    openPostgresStore({ url: postgresUrl, size: 4, schema: schema ?? (await schemas.create()) })

  storeConformance('postgres', () => open())

  it('applies the migrations once when instances start together', async () => {
    const schema = await schemas.create()
    const stores = await Promise.all([open(schema), open(schema), open(schema)])
    const admin = new pg.Client({ connectionString: postgresUrl })
    await admin.connect()
    const { rows } = await admin.query(`SELECT version FROM ${schema}.schema_migrations`)
    await admin.end()
    expect(rows.map((row) => row.version)).toEqual(postgresMigrations.map((_, index) => index + 1))
    await Promise.all(stores.map((store) => store.close()))
  })

  it('commits ids in order across stores, so a keyset walk misses no concurrent create', async () => {
    const schema = await schemas.create()
    const writers = await Promise.all([open(schema), open(schema)])
    const reader = await open(schema)
    const created: number[] = []
    const writing = (async () => {
      for (let round = 0; round < 20; round++) {
        const pets = await Promise.all(
          writers.flatMap((store) =>
            Array.from({ length: 5 }, (_, i) =>
              store.pets.create({ name: `p${round}-${i}`, categoryId: 1, status: 'available' }),
            ),
          ),
        )
        created.push(...pets.map((pet) => pet.id))
      }
    })()
    const seen: number[] = []
    let afterId: number | undefined
    let finished = false
    void writing.then(() => {
      finished = true
    })
    // Walk while writing; once writers are done, one last walk from where we are.
    for (;;) {
      const done = finished
      const page = await reader.pets.list({ limit: 3, afterId })
      seen.push(...(JSON.parse(page.json) as Pet[]).map((pet) => pet.id))
      afterId = page.lastId ?? afterId
      if (!page.hasMore && done) break
    }
    await writing
    expect(seen).toEqual([...created].sort((a, b) => a - b))
    await Promise.all([...writers, reader].map((store) => store.close()))
  })

  it('forgets a cached key on every store once another store revokes it', async () => {
    const schema = await schemas.create()
    const [a, b] = await Promise.all([open(schema), open(schema)])
    const created = await a.keys.create({
      hash: 'h'.repeat(64),
      name: null,
      plan: 'free',
      perMinute: null,
      perDay: null,
    })
    // Wait until b listens, so that its lookups are cached.
    const deadline = Date.now() + 10_000
    while ((await b.keys.findActiveByHash('h'.repeat(64)))?.id !== created.id) {
      if (Date.now() > deadline) throw new Error('key not found on b')
    }
    await sleep(300)
    expect((await b.keys.findActiveByHash('h'.repeat(64)))?.id).toBe(created.id)
    await a.keys.revoke(created.id)
    let found = await b.keys.findActiveByHash('h'.repeat(64))
    while (found !== undefined && Date.now() < deadline) {
      await sleep(20)
      found = await b.keys.findActiveByHash('h'.repeat(64))
    }
    expect(found).toBeUndefined()
    await Promise.all([a.close(), b.close()])
  })

  it('pings not ready while its sessions may not write, and ready again after', async () => {
    // A role whose new sessions are read-only stands for a standby or a read-only database.
    const role = await privateRole(await schemas.create())
    const store = await openPostgresStore({ url: role.url, size: 1 })
    const pingUntil = async (settles: (error: unknown) => boolean) => {
      const deadline = Date.now() + 10_000
      for (;;) {
        const error = await store.ping().then(
          () => undefined,
          (reason: unknown) => reason,
        )
        if (settles(error) || Date.now() > deadline) return error
        await sleep(50)
      }
    }
    try {
      await expect(store.ping()).resolves.toBeUndefined()
      await role.setReadOnly(true)
      await role.endSessions()
      // The ended sessions may first answer as lost (57P01): wait for the read-only verdict.
      const readOnly = await pingUntil(
        (error) => (error as BackendUnavailableError | undefined)?.condition === 'read-only',
      )
      expect(readOnly).toBeInstanceOf(BackendUnavailableError)
      expect(readOnly).toMatchObject({ service: 'postgres', condition: 'read-only' })
      // Writes are refused as the store's condition (503), not as a bug (500).
      await expect(
        store.pets.create({ name: 'Rex', categoryId: 1, status: 'available' }),
      ).rejects.toMatchObject({ condition: 'read-only', code: '25006' })
      await expect(
        store.keys.create({
          hash: 'c'.repeat(64),
          name: null,
          plan: 'free',
          perMinute: null,
          perDay: null,
        }),
      ).rejects.toMatchObject({ condition: 'read-only', code: '25006' })
      // A session found read-only is dropped, so the store sees the RESET without help.
      await role.setReadOnly(false)
      expect(await pingUntil((error) => error === undefined)).toBeUndefined()
      expect(
        await store.pets.create({ name: 'Rex', categoryId: 1, status: 'available' }),
      ).toMatchObject({ name: 'Rex' })
    } finally {
      await store.close()
      await role.drop()
    }
  })

  it('rejects only the failing create of a group', async () => {
    const schema = await schemas.create()
    const store = await open(schema)
    // A trigger refuses one pet, as the database would refuse any write it cannot take.
    const admin = new pg.Client({ connectionString: postgresUrl })
    await admin.connect()
    await admin.query(`
      CREATE FUNCTION ${schema}.refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused by the database'; END $$;
      CREATE TRIGGER refuse BEFORE INSERT ON ${schema}.pets FOR EACH ROW
        WHEN (NEW.doc->>'name' = 'bad') EXECUTE FUNCTION ${schema}.refuse();`)
    await admin.end()
    const results = await Promise.allSettled([
      store.pets.create({ name: 'ok1', categoryId: 1, status: 'available' }),
      store.pets.create({ name: 'bad', categoryId: 1, status: 'available' }),
      store.pets.create({ name: 'ok2', categoryId: 1, status: 'available' }),
    ])
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(String((results[1] as PromiseRejectedResult).reason)).toContain(
      'refused by the database',
    )
    expect(JSON.parse((await store.pets.list({ limit: 10 })).json)).toMatchObject([
      { name: 'ok1' },
      { name: 'ok2' },
    ])
    await store.close()
  })
})

it('classifies what PostgreSQL cannot serve by SQLSTATE, and leaves a bad statement a bug', () => {
  const condition = (code: string, message = 'x') =>
    postgresCondition(Object.assign(new Error(message), { code }))
  expect(
    ['53100', '53200', '25006', '08006', '57P01', '57P03', '53300', '58030', 'ECONNREFUSED'].map(
      (code) => condition(code),
    ),
  ).toEqual([
    'full',
    'full',
    'read-only',
    'unreachable',
    'unreachable',
    'unreachable',
    'unreachable',
    'io',
    'unreachable',
  ])
  expect(postgresCondition(new Error('Query read timeout'))).toBe('stalled')
  for (const code of ['23505', '42P01', '22P02', '57014']) expect(condition(code)).toBeUndefined()
})
