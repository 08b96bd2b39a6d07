import type { paths } from '@petstore/types'
import createClient from 'openapi-fetch'
import { afterEach, expect, it } from 'vitest'
import { auth } from '../../src/middleware/auth.js'
import { scriptedServer, type TestServer } from '../helpers.js'

const servers: TestServer[] = []

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

it('sends the key as a bearer token unless the call brings its own Authorization', async () => {
  const server = await scriptedServer([{ status: 200, body: [] }])
  servers.push(server)
  const client = createClient<paths>({ baseUrl: server.url })
  client.use(auth('psk_test_1'))
  await client.GET('/pets')
  await client.GET('/pets', { headers: { Authorization: 'Bearer other' } })
  expect(server.requests.map((request) => request.headers.authorization)).toEqual([
    'Bearer psk_test_1',
    'Bearer other',
  ])
})
