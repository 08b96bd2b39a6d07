/**
 * The contract ceiling on Fastify answers listPets, getPet and createPet as the bare ceiling
 * does: the same statuses, bodies and headers, request by request, on copies of one database.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ContractCeiling, createContractCeiling } from '../../src/ceilings/contract.js'
import { createContractCursors } from '../../src/ceilings/contract-cursor.js'
import { createFastifyContractCeiling } from '../../src/ceilings/fastify-contract.js'
import { copyDatabase, countPets, seedPets, workspaceServer } from '../../src/seed.js'
import { bearer } from '../../src/workloads.js'
import { closeServer, createKeyedDatabase, listen, tempDir } from '../helpers.js'

/** Headers whose values differ between any two answers, whoever writes them. */
const varying = new Set(['date', 'x-request-id', 'x-ratelimit-reset', 'ratelimit', 'keep-alive'])
/** How the body is framed: Fastify sends its length, bare node:http here chunks it. */
const framing = new Set(['content-length', 'transfer-encoding'])

interface Answer {
  status: number
  body: string
  headers: Record<string, string>
}

describe('the contract ceiling on Fastify', () => {
  const temp = tempDir()
  const started: { ceiling: ContractCeiling; url: string; dbPath: string }[] = []
  let key = ''
  beforeAll(async () => {
    const dbPath = join(temp.dir, 'bare.db')
    key = await createKeyedDatabase(dbPath)
    await seedPets(workspaceServer, dbPath, { count: 50 })
    const fastifyDb = join(temp.dir, 'fastify.db')
    copyDatabase(dbPath, fastifyDb)
    const bare = createContractCeiling(dbPath, join(temp.dir, 'bare.log'))
    started.push({ ceiling: bare, url: await listen(bare.server), dbPath })
    const onFastify = await createFastifyContractCeiling(fastifyDb, join(temp.dir, 'fastify.log'))
    started.push({ ceiling: onFastify, url: await listen(onFastify.server), dbPath: fastifyDb })
  })
  afterAll(async () => {
    for (const { ceiling } of started) {
      await closeServer(ceiling.server)
      await ceiling.close()
    }
    temp.remove()
  })

  /** What is sent: with the bench key unless `withoutKey`, and a JSON body when there is one. */
  interface Sent {
    method?: string
    body?: string
    withoutKey?: boolean
  }
  const after20 = encodeURIComponent(createContractCursors().encode(20))
  const requests: [string, string, Sent][] = [
    ['listPets', '/v1/pets?limit=20', {}],
    ['the page after a cursor', `/v1/pets?limit=20&cursor=${after20}`, {}],
    ['a status filter', '/v1/pets?limit=5&status=available', {}],
    ['a limit over 100', '/v1/pets?limit=101', {}],
    ['a limit given twice', '/v1/pets?limit=5&limit=6', {}],
    ['a cursor not made here', '/v1/pets?cursor=nope', {}],
    ['getPet', '/v1/pets/7', {}],
    ['an unknown pet', '/v1/pets/9999', {}],
    ['a malformed id', '/v1/pets/010', {}],
    ['getPet without a key', '/v1/pets/7', { withoutKey: true }],
    ['a create', '/v1/pets', { method: 'POST', body: '{"name":"Rex","categoryId":3}' }],
    ['a bad NewPet', '/v1/pets', { method: 'POST', body: '{"name":" ","categoryId":1}' }],
  ]

  async function answer(url: string, path: string, sent: Sent): Promise<Answer> {
    const response = await fetch(`${url}${path}`, {
      method: sent.method ?? 'GET',
      headers: {
        ...(sent.withoutKey ? {} : bearer(key)),
        ...(sent.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(sent.body === undefined ? {} : { body: sent.body }),
    })
    const headers: Record<string, string> = {}
    for (const [name, value] of response.headers) {
      if (!framing.has(name)) headers[name] = varying.has(name) ? '' : value
    }
    return { status: response.status, body: await response.text(), headers }
  }

  it.each(requests)('answers %s as the bare ceiling does', async (_name, path, sent) => {
    const [bare, onFastify] = await Promise.all(started.map(({ url }) => answer(url, path, sent)))
    expect(onFastify).toEqual(bare)
  })

  it('stores each create it answers', async () => {
    const [bare, onFastify] = started.map(({ dbPath }) => countPets(dbPath))
    expect(onFastify).toBe(bare)
  })
})
