import type { paths } from '@petstore/types'
import { operationIds } from '@petstore/types'
import createClient from 'openapi-fetch'
import { afterEach, describe, expect, it } from 'vitest'
import {
  type DeprecationNotice,
  deprecation,
  formatDeprecation,
  warnDeprecation,
} from '../../src/middleware/deprecation.js'
import { scriptedServer, storedPet, type TestServer } from '../helpers.js'

const deprecatedHeaders = {
  Deprecation: '@1767225600',
  Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  Link: '</docs#operation/getPet>; rel="deprecation"; type="text/html", </docs#section/Deprecation-policy>; rel="sunset"; type="text/html", </v1/pets>; rel="successor-version"',
}
const pet = storedPet()
/** The spec's ids of the two operations these tests call (the middleware names them so). */
const getPet = operationIds['GET /pets/{petId}']
const listPets = operationIds['GET /pets']
const servers: TestServer[] = []

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function setup() {
  const server = await scriptedServer([{ status: 200, headers: deprecatedHeaders, body: pet }])
  servers.push(server)
  const notices: DeprecationNotice[] = []
  const client = createClient<paths>({ baseUrl: `${server.url}/v1` })
  client.use(deprecation({ operationIds, onDeprecation: (notice) => notices.push(notice) }))
  return { server, client, notices }
}

describe('deprecation', () => {
  it('reports a deprecated operation once, with its dates and successor', async () => {
    const { server, client, notices } = await setup()
    await client.GET('/pets/{petId}', { params: { path: { petId: 1 } } })
    await client.GET('/pets/{petId}', { params: { path: { petId: 2 } } })
    expect(notices).toEqual([
      {
        operation: getPet,
        method: 'GET',
        path: '/pets/{petId}',
        deprecatedAt: new Date('2026-01-01T00:00:00Z'),
        sunset: new Date('2030-12-05T00:00:00Z'),
        successor: `${server.url}/v1/pets`,
        documentation: `${server.url}/docs#operation/getPet`,
      },
    ])
  })

  it('reports each operation separately', async () => {
    const { client, notices } = await setup()
    await client.GET('/pets/{petId}', { params: { path: { petId: 1 } } })
    await client.GET('/pets')
    expect(notices.map((notice) => notice.operation)).toEqual([getPet, listPets])
  })

  it('names an operation by method and path when its id is unknown', async () => {
    const server = await scriptedServer([
      { status: 200, headers: { Sunset: deprecatedHeaders.Sunset } },
    ])
    servers.push(server)
    const notices: DeprecationNotice[] = []
    const client = createClient<paths>({ baseUrl: server.url })
    client.use(deprecation({ onDeprecation: (notice) => notices.push(notice) }))
    await client.GET('/pets')
    expect(notices[0]).toMatchObject({
      operation: 'GET /pets',
      deprecatedAt: undefined,
      successor: undefined,
    })
  })

  it('formats one line naming the operation, sunset and successor', () => {
    expect(
      formatDeprecation({
        operation: 'getPet',
        method: 'GET',
        path: '/pets/{petId}',
        deprecatedAt: new Date('2026-01-01T00:00:00Z'),
        sunset: new Date('2030-12-05T00:00:00Z'),
        successor: 'https://api.petstore.example/v1/pets',
        documentation: undefined,
      }),
    ).toBe(
      'getPet (GET /pets/{petId}) is deprecated since 2026-01-01 and will be removed on 2030-12-05; use https://api.petstore.example/v1/pets instead',
    )
  })

  it('warns through process.emitWarning in Node by default', async () => {
    const warnings: Error[] = []
    const listener = (warning: Error) => warnings.push(warning)
    process.on('warning', listener)
    try {
      warnDeprecation({
        operation: 'getPet',
        method: 'GET',
        path: '/pets/{petId}',
        deprecatedAt: undefined,
        sunset: new Date('2030-12-05T00:00:00Z'),
        successor: undefined,
        documentation: undefined,
      })
      await new Promise((resolve) => setImmediate(resolve))
    } finally {
      process.off('warning', listener)
    }
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatchObject({
      name: 'DeprecationWarning',
      code: 'PETSTORE_DEPRECATED_OPERATION',
      message: 'getPet (GET /pets/{petId}) is deprecated and will be removed on 2030-12-05',
    })
  })
})
