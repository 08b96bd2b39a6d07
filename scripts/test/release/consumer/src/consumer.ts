/**
 * A stranger's program on the published packages: it adds a pet through the typed client, finds
 * it in the list and reads a fact from the bundled spec, then prints what it saw as JSON.
 */
import { createPetstoreClient, unwrap } from '@petstore/client'
import type { NewPet, Pet } from '@petstore/types'
import { planLimits } from '@petstore/types/spec'

function setting(name: string): string {
  const value = process.env[name]
  if (value === undefined || value === '') throw new Error(`${name} is not set`)
  return value
}

const client = createPetstoreClient({
  baseUrl: setting('PETSTORE_URL'),
  apiKey: setting('PETSTORE_API_KEY'),
  timeoutMs: 10_000,
})

const biscuit: NewPet = { name: 'Biscuit', categoryId: 1, status: 'pending' }
const created: Pet = unwrap(await client.POST('/pets', { body: biscuit }))
const page = unwrap(await client.GET('/pets', { params: { query: { limit: 100 } } }))

console.log(
  JSON.stringify({
    created,
    listed: page.map((pet) => pet.id),
    freePerMinute: planLimits.free.perMinute,
  }),
)
