/** Idempotency-Key on createPet over real HTTP: replay, reuse, in-flight, scoping. */
import type { NewPet } from '@petstore/types'
import { afterAll, beforeAll, expect, it } from 'vitest'
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

let server: TestServer
let auth: { authorization: string }

beforeAll(async () => {
  ;({ server, auth } = await startWithKey())
})
afterAll(async () => server.close())

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
  // Answered 100 Continue once the server has the headers: the key is claimed by then.
  const held = await heldCreate(server.url, { ...auth, 'idempotency-key': 'in-flight' }, pet)
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
