/** The operator CLI on PostgreSQL (`DATABASE_URL`): keys and seed, in a fresh schema. */
import { afterAll, describe, expect, it } from 'vitest'
import { hashApiKey } from '../../src/auth/api-key.js'
import { openPostgresStore } from '../../src/store/postgres/index.js'
import { runCliWith } from '../helpers.js'
import { inSchema, postgresUrl, schemaFactory, serviceAvailable } from '../services.js'

const available = await serviceAvailable('PostgreSQL', 'test/cli/postgres.test.ts')

describe.runIf(available)('petstore CLI on PostgreSQL', () => {
  const schemas = schemaFactory()
  afterAll(() => schemas.dropAll())

  const cli = (args: string[], databaseUrl: string) =>
    runCliWith(args, { DATABASE_URL: databaseUrl })

  it('creates, lists and revokes keys and seeds pets', async () => {
    const schema = await schemas.create()
    const databaseUrl = inSchema(postgresUrl, schema)

    const created = await cli(['keys', 'create', '--plan', 'pro', '--name', 'pg'], databaseUrl)
    expect(created.code).toBe(0)
    const rawKey = created.stdout.trim()
    const listed = await cli(['keys', 'list', '--json'], databaseUrl)
    const [key] = JSON.parse(listed.stdout) as { id: string; plan: string; revokedAt: null }[]
    expect(key).toMatchObject({ plan: 'pro', name: 'pg', revokedAt: null })
    expect((await cli(['seed', '--pets', '12'], databaseUrl)).code).toBe(0)

    const store = await openPostgresStore({ url: postgresUrl, size: 1, schema })
    try {
      expect((await store.keys.findActiveByHash(hashApiKey(rawKey)))?.id).toBe(key?.id)
      expect(JSON.parse((await store.pets.list({ limit: 100 })).json)).toHaveLength(12)
      expect((await cli(['keys', 'revoke', key?.id ?? ''], databaseUrl)).code).toBe(0)
      expect(await store.keys.findActiveByHash(hashApiKey(rawKey))).toBeUndefined()
    } finally {
      await store.close()
    }
  })
})
