import type { paths } from '@petstore/types'
import createClient from 'openapi-fetch'
import { afterEach, describe, expect, it } from 'vitest'
import { BuiltRequest, directFetch } from '../src/direct-fetch.js'
import { newPet, scriptedServer, storedPet, type TestServer } from './helpers.js'

const pet = storedPet()
const servers: TestServer[] = []

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function setup(steps: Parameters<typeof scriptedServer>[0]) {
  const server = await scriptedServer(steps)
  servers.push(server)
  const client = createClient<paths>({
    baseUrl: `${server.url}/v1`,
    headers: { Authorization: 'Bearer psk_test_1' },
    Request: BuiltRequest,
    fetch: directFetch,
  })
  return { server, client }
}

describe('BuiltRequest', () => {
  it('builds plain Requests, and counts every Request as its instance', () => {
    const built = new BuiltRequest('http://127.0.0.1/v1/pets')
    expect(Object.getPrototypeOf(built)).toBe(Request.prototype)
    expect(new Request('http://127.0.0.1/v1/pets')).toBeInstanceOf(BuiltRequest)
    expect(built).toBeInstanceOf(BuiltRequest)
  })
})

describe('directFetch', () => {
  it('sends the built request with the headers middleware set after it was built', async () => {
    const { server, client } = await setup([{ status: 200, body: [pet] }])
    client.use({
      onRequest({ request }) {
        request.headers.set('X-Request-Id', 'req-1')
      },
    })
    const { data } = await client.GET('/pets', { params: { query: { limit: 5 } } })
    expect(data).toEqual([pet])
    expect(server.requests).toMatchObject([
      {
        method: 'GET',
        url: '/v1/pets?limit=5',
        headers: { authorization: 'Bearer psk_test_1', 'x-request-id': 'req-1' },
      },
    ])
  })

  it("aborts with the caller's signal", async () => {
    const { server, client } = await setup(['hang'])
    const controller = new AbortController()
    const call = client.GET('/pets', { signal: controller.signal })
    await expect.poll(() => server.requests.length).toBe(1)
    controller.abort()
    await expect(call).rejects.toMatchObject({ name: 'AbortError' })
  })

  it('sends a body, and a request that middleware replaced, as fetch(request) would', async () => {
    const { server, client } = await setup([{ status: 201, body: pet }])
    client.use({
      onRequest({ request }) {
        return new Request(request, { headers: { 'X-Replaced': 'yes' } })
      },
    })
    const { data } = await client.POST('/pets', { body: newPet() })
    expect(data).toEqual(pet)
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0]?.headers['x-replaced']).toBe('yes')
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual(newPet())
  })
})
