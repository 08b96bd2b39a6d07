/** Keyset pagination through the Link header, under concurrent creates and across restarts. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createCursorCodec } from '../../src/routes/cursor.js'
import { operationById } from '../../src/spec/operations.js'
import {
  call,
  errorOf,
  expectErrorBody,
  expectSpecResponse,
  newPet,
  petsOf,
  postJson,
  type Reply,
  startWithKey,
  type TestServer,
} from '../helpers.js'

let server: TestServer
let auth: { authorization: string }

beforeAll(async () => {
  ;({ server, auth } = await startWithKey())
  for (let index = 0; index < 25; index++) {
    await postJson(
      `${server.api}/pets`,
      newPet({ name: `pet ${index}`, status: index % 2 === 0 ? 'available' : 'sold' }),
      auth,
    )
  }
})
afterAll(async () => server.close())

function nextLink(reply: Reply): string | undefined {
  const link = reply.headers.get('link')
  if (link === null) return undefined
  const match = /^<([^>]+)>; rel="next"$/.exec(link)
  expect(match, `Link: ${link}`).not.toBeNull()
  return match?.[1]
}

async function walk(first: string, during?: () => Promise<unknown>) {
  const ids: number[] = []
  const links: string[] = []
  let url: string | undefined = first
  while (url !== undefined) {
    const [page] = await Promise.all([call(`${server.url}${url}`, { headers: auth }), during?.()])
    expectSpecResponse(page, 'listPets')
    ids.push(...petsOf(page).map((pet) => pet.id))
    url = nextLink(page)
    if (url !== undefined) links.push(url)
  }
  return { ids, links }
}

it('visits every pet exactly once while pets are being created', async () => {
  const before = (await walk('/v1/pets?limit=100')).ids
  let created = 0
  const { ids, links } = await walk('/v1/pets?limit=4', async () => {
    created++
    await postJson(`${server.api}/pets`, newPet({ name: `during ${created}`, categoryId: 2 }), auth)
  })
  expect(new Set(ids).size).toBe(ids.length)
  expect(ids).toEqual([...ids].sort((a, b) => a - b))
  for (const id of before) expect(ids).toContain(id)
  for (const link of links) expect(link).toMatch(/^\/v1\/pets\?limit=4&cursor=[A-Za-z0-9_-]{22}$/)
})

it('keeps limit and status in the next link, and the last page has none', async () => {
  const { ids, links } = await walk('/v1/pets?status=sold&limit=5')
  const all = await call(`${server.api}/pets?status=sold&limit=100`, { headers: auth })
  expect(ids).toEqual(petsOf(all).map((pet) => pet.id))
  expect(links.length).toBeGreaterThan(0)
  for (const link of links) expect(link).toMatch(/^\/v1\/pets\?limit=5&status=sold&cursor=/)
  expect(nextLink(all)).toBeUndefined()
})

it('uses the effective default limit in the next link', async () => {
  const limit = operationById('listPets').parameters.find(({ name }) => name === 'limit')
  const fallback = limit?.schema.default
  expect(fallback, "listPets' limit in spec/openapi.yaml has no default").toBeTypeOf('number')
  const first = await call(`${server.api}/pets`, { headers: auth })
  expect(petsOf(first).length).toBe(fallback)
  expect(nextLink(first)).toMatch(new RegExp(`^/v1/pets\\?limit=${fallback}&cursor=`))
})

it('rejects an empty, altered or foreign cursor with 400', async () => {
  const first = await call(`${server.api}/pets?limit=2`, { headers: auth })
  const cursor = new URL(`${server.url}${nextLink(first)}`).searchParams.get('cursor') ?? ''
  const last = cursor.at(-1) === 'A' ? 'Q' : 'A'
  const forged = Buffer.from(JSON.stringify({ v: 1, id: 1 })).toString('base64url')
  const altered = [
    '',
    `${cursor.slice(0, -1)}${last}`,
    createCursorCodec('another secret', 'listPets').encode(2),
    `${forged}.${'A'.repeat(22)}`,
    cursor.slice(1),
    `${cursor}.x`,
    'not-a-cursor',
    'a'.repeat(513),
  ]
  for (const bad of altered) {
    const reply = await call(`${server.api}/pets?limit=2&cursor=${bad}`, { headers: auth })
    expectSpecResponse(reply, 'listPets')
    expectErrorBody(reply, 'invalid_request')
    expect(errorOf(reply).message).toContain('cursor')
  }
})

it('keeps cursors valid across a restart on the same database', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-cursor-'))
  try {
    const dbPath = join(dir, 'petstore.db')
    const first = await startWithKey('pro', { dbPath })
    for (let index = 0; index < 3; index++)
      await postJson(`${first.server.api}/pets`, newPet({ name: `p${index}` }), first.auth)
    const page = await call(`${first.server.api}/pets?limit=1`, { headers: first.auth })
    const next = nextLink(page)
    await first.server.close()
    const second = await startWithKey('pro', { dbPath })
    const followed = await call(`${second.server.url}${next}`, { headers: second.auth })
    expect(followed.status).toBe(200)
    expect(petsOf(followed).map((pet) => pet.name)).toEqual(['p1'])
    await second.server.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
