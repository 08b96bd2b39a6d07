import { operationsOf, resolveRef } from '@petstore/types/openapi'
import { openapiDocument } from '@petstore/types/spec'
import { describe, expect, it } from 'vitest'
import { createPetstoreClient, unwrap } from '../src/index.js'
import { withDeclaredMediaType } from '../src/media-type.js'
import { newPet, realPetstore } from './helpers.js'

const petstore = realPetstore()

/** A client whose `fetch` records the `Content-Type` of each request it sends, then sends it. */
function recordingClient() {
  const sent: (string | null)[] = []
  const client = createPetstoreClient({
    baseUrl: `${petstore.url}/v1`,
    apiKey: petstore.apiKey,
    fetch: (request) => {
      sent.push(request.headers.get('Content-Type'))
      return fetch(request)
    },
  })
  return { client, sent }
}

type Node = Record<string, unknown>

/** Each operation of the spec with a request body, and the media types it declares, in order. */
const withBodies = operationsOf(openapiDocument as unknown as Node).flatMap(
  ({ path, method, operation }) => {
    if (operation.requestBody === undefined) return []
    const body = resolveRef<Node>(openapiDocument, operation.requestBody as Node)
    return [{ path, method, types: Object.keys(body.content as Node) }]
  },
)

describe('the declared request media type', () => {
  it('is the first type each operation of the spec declares', () => {
    expect(withBodies.map(({ types }) => types[0])).toContain('application/merge-patch+json')
    for (const { path, method, types } of withBodies) {
      const init = withDeclaredMediaType<{ body: unknown; headers?: unknown }>(method, path, {
        body: {},
      })
      // openapi-fetch sends its application/json where no header is added.
      const sent = (init.headers as Record<string, string> | undefined)?.['Content-Type']
      expect(sent ?? 'application/json', `${method} ${path}`).toBe(types[0])
    }
  })

  it('goes out as application/merge-patch+json for updatePet, which the server accepts', async () => {
    const { client, sent } = recordingClient()
    const pet = unwrap(await client.POST('/pets', { body: newPet({ name: 'Rex' }) }))
    const patched = await client.PATCH('/pets/{petId}', {
      params: { path: { petId: pet.id } },
      body: { name: 'Rexy' },
    })
    expect(patched.error).toBeUndefined()
    expect(patched.data).toEqual({ ...pet, name: 'Rexy' })
    expect(sent).toEqual(['application/json', 'application/merge-patch+json'])
  })

  it('is the same through client.request and for updateOrder', async () => {
    const { client, sent } = recordingClient()
    const pet = unwrap(await client.POST('/pets', { body: newPet() }))
    const order = unwrap(await client.POST('/store/orders', { body: { petId: pet.id } }))
    const approved = await client.request('patch', '/store/orders/{orderId}', {
      params: { path: { orderId: order.id } },
      body: { status: 'approved' },
    })
    expect(approved.data?.status).toBe('approved')
    expect(sent).toEqual(['application/json', 'application/json', 'application/merge-patch+json'])
  })

  it('leaves a Content-Type the caller set, even one the operation refuses', async () => {
    const { client, sent } = recordingClient()
    const pet = unwrap(await client.POST('/pets', { body: newPet() }))
    // The server refuses a merge patch labelled application/json: the header was not replaced.
    const refused = await client.PATCH('/pets/{petId}', {
      params: { path: { petId: pet.id } },
      body: { name: 'Plain JSON' },
      headers: { 'content-type': 'application/json' },
    })
    expect(refused.response.status).toBe(415)
    expect(refused.error?.code).toBe('unsupported_media_type')
    const own = 'application/merge-patch+json; charset=utf-8'
    const accepted = await client.PATCH('/pets/{petId}', {
      params: { path: { petId: pet.id } },
      body: { name: 'Charset' },
      headers: new Headers({ 'Content-Type': own }),
    })
    expect(accepted.data?.name).toBe('Charset')
    expect(sent.slice(1)).toEqual(['application/json', own])
  })

  it('keeps the other headers a call sets, and adds nothing without a body', async () => {
    const { client, sent } = recordingClient()
    const pet = unwrap(await client.POST('/pets', { body: newPet() }))
    const patched = await client.PATCH('/pets/{petId}', {
      params: { path: { petId: pet.id } },
      body: { categoryId: 2 },
      headers: new Headers({ 'X-Request-Id': 'media-type-test' }),
    })
    expect(patched.meta.requestId).toBe('media-type-test')
    expect(patched.data?.categoryId).toBe(2)
    const deleted = await client.DELETE('/pets/{petId}', { params: { path: { petId: pet.id } } })
    expect(deleted.response.status).toBe(204)
    expect(sent).toEqual(['application/json', 'application/merge-patch+json', null])
  })

  it('reads header pairs as headers, with a body and without', async () => {
    const { client, sent } = recordingClient()
    const pet = unwrap(await client.POST('/pets', { body: newPet() }))
    const patched = await client.PATCH('/pets/{petId}', {
      params: { path: { petId: pet.id } },
      body: { name: 'Pairs' },
      headers: [['X-Request-Id', 'pairs-with-body']],
    })
    expect([patched.data?.name, patched.meta.requestId]).toEqual(['Pairs', 'pairs-with-body'])
    const read = await client.GET('/pets/{petId}', {
      params: { path: { petId: pet.id } },
      headers: [['X-Request-Id', 'pairs-without-body']],
    })
    expect([read.data?.name, read.meta.requestId]).toEqual(['Pairs', 'pairs-without-body'])
    expect(sent).toEqual(['application/json', 'application/merge-patch+json', null])
  })
})
