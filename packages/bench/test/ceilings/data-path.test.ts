import { describe, expect, it } from 'vitest'
import { runLoad } from '../../src/load.js'
import { findDeepCursor } from '../../src/probe.js'
import { countPets } from '../../src/seed.js'
import { servedDataPathCeiling } from '../helpers.js'

describe('the data-path ceiling', () => {
  const ceiling = servedDataPathCeiling({ count: 250, soldTail: 5 })

  it('lists pets by id with a next link that keeps limit and status', async () => {
    const response = await fetch(`${ceiling.url}/v1/pets?limit=2&status=pending`)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual([
      { id: 2, name: 'Pet 2', categoryId: 3, status: 'pending' },
      { id: 4, name: 'Pet 4', categoryId: 5, status: 'pending' },
    ])
    expect(response.headers.get('link')).toBe(
      '</v1/pets?limit=2&status=pending&cursor=4>; rel="next"',
    )
  })

  it('gets a pet, and 404s an unknown one', async () => {
    expect(await (await fetch(`${ceiling.url}/v1/pets/7`)).json()).toEqual({
      id: 7,
      name: 'Pet 7',
      categoryId: 8,
      status: 'available',
    })
    expect((await fetch(`${ceiling.url}/v1/pets/9999`)).status).toBe(404)
  })

  it('creates a pet durably and answers 201 with its location', async () => {
    const before = countPets(ceiling.dbPath)
    const response = await fetch(`${ceiling.url}/v1/pets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 3 }),
    })
    expect(response.status).toBe(201)
    const pet = (await response.json()) as { id: number }
    expect(response.headers.get('location')).toBe(`/v1/pets/${pet.id}`)
    expect(countPets(ceiling.dbPath)).toBe(before + 1)
  })

  it('hands out a deep cursor through its own API', async () => {
    const cursor = await findDeepCursor('data-path', ceiling.url, {}, 250)
    const page = (await (
      await fetch(`${ceiling.url}/v1/pets?limit=20&cursor=${cursor}`)
    ).json()) as {
      id: number
    }[]
    expect(page[0]?.id).toBeGreaterThan(250)
  })

  it('serves a short load run with only 2xx responses', async () => {
    const result = await runLoad({
      url: ceiling.url,
      calls: [{ method: 'GET', path: '/v1/pets?limit=20' }],
      connections: 4,
      seconds: 0.3,
    })
    expect(result.ok).toBeGreaterThan(0)
    expect(result.non2xx + result.errors).toBe(0)
    expect(result.requestsPerSecond).toBeGreaterThan(0)
  })
})
