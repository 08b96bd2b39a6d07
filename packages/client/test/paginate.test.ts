import { type RunningPetstore, startPetstore } from '@petstore/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createPetstoreClient,
  type PetstoreClient,
  PetstoreError,
  paginate,
  paginatePages,
} from '../src/index.js'
import { newPet } from './helpers.js'

let petstore: RunningPetstore
let client: PetstoreClient
const total = 250

beforeAll(async () => {
  petstore = await startPetstore()
  const apiKey = await petstore.issueKey({
    plan: 'enterprise',
    perMinute: 100_000,
    perDay: 1_000_000,
  })
  client = createPetstoreClient({ baseUrl: `${petstore.url}/v1`, apiKey })
  for (let start = 0; start < total; start += 25) {
    await Promise.all(
      Array.from({ length: 25 }, (_, offset) =>
        client.POST('/pets', {
          body: newPet({
            name: `Pet ${start + offset}`,
            status: (start + offset) % 5 === 0 ? 'sold' : 'available',
          }),
        }),
      ),
    )
  }
})

afterAll(async () => {
  await petstore?.close()
})

describe('paginate', () => {
  it('visits all 250 pets once, in id order, following the next links', async () => {
    const ids: number[] = []
    for await (const pet of paginate(client, 'listPets', { limit: 100 })) ids.push(pet.id)
    expect(ids).toHaveLength(total)
    expect(ids).toEqual([...ids].sort((a, b) => a - b))
    expect(new Set(ids).size).toBe(total)
  })

  it('keeps the status filter across pages', async () => {
    const statuses = new Set<string>()
    let count = 0
    for await (const pet of paginate(client, 'listPets', { status: 'sold', limit: 20 })) {
      statuses.add(pet.status)
      count += 1
    }
    expect(count).toBe(total / 5)
    expect([...statuses]).toEqual(['sold'])
  })

  it('exposes each page with its response, the last one without a next link', async () => {
    const pages = []
    for await (const page of paginatePages(client, 'listPets', { limit: 100 })) pages.push(page)
    expect(pages.map((page) => page.items.length)).toEqual([100, 100, 50])
    expect(pages.map((page) => page.response.status)).toEqual([200, 200, 200])
    expect(pages[0]?.next).toMatch(/\/v1\/pets\?.*cursor=/)
    expect(pages[2]?.next).toBeUndefined()
  })

  it('throws an error response as a PetstoreError', async () => {
    const stranger = createPetstoreClient({ baseUrl: `${petstore.url}/v1`, apiKey: 'nope' })
    const walk = paginate(stranger, 'listPets')
    await expect(walk.next()).rejects.toBeInstanceOf(PetstoreError)
  })
})
