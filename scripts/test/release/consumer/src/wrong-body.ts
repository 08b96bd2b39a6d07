/** Request bodies the spec does not allow: this file must not compile. */
import { createPetstoreClient } from '@petstore/client'

const client = createPetstoreClient({ baseUrl: 'http://127.0.0.1:3000/v1', apiKey: 'key' })

export const misspelt = await client.POST('/pets', { body: { nam: 'Rex', categoryId: 1 } })
export const unknownStatus = await client.POST('/pets', {
  body: { name: 'Rex', categoryId: 1, status: 'adopted' },
})
