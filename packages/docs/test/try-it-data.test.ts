import { openapiDocument } from '@petstore/types/spec'
import { expect, it } from 'vitest'
import { listOperations } from '../src/openapi.js'
import { tryItData } from '../src/try-it-data.js'
import { createPetExample, spec } from './helpers.js'

it('projects every operation with its parameters, examples and first body example', () => {
  const data = tryItData(spec, 'https://pets.test/v1')
  expect(data.apiBaseUrl).toBe('https://pets.test/v1')
  expect(data.servers.map((s) => s.url)).toEqual(spec.servers?.map((s) => s.url))
  expect(data.operations.map((o) => o.operationId)).toEqual(
    listOperations(spec).map((e) => e.operation.operationId),
  )
  const [listPets, createPet, getPet] = ['listPets', 'createPet', 'getPet'].map((id) =>
    data.operations.find((o) => o.operationId === id),
  )
  expect(listPets).toMatchObject({ operationId: 'listPets', method: 'get', path: '/pets' })
  expect(listPets?.parameters.find((p) => p.name === 'status')).toMatchObject({
    in: 'query',
    required: false,
    example: 'available',
    enum: openapiDocument.components.schemas.PetStatus.enum,
  })
  expect(JSON.parse(createPet?.body ?? '')).toEqual(createPetExample)
  expect(getPet?.deprecated).toBe(true)
  expect(getPet?.parameters[0]).toMatchObject({
    name: 'petId',
    in: 'path',
    required: true,
    example: '1',
  })
})

it("carries each operation's deprecation and its sunset day, as the spec declares them", () => {
  const data = tryItData(spec, 'https://pets.test/v1')
  for (const { operation } of listOperations(spec)) {
    const projected = data.operations.find((o) => o.operationId === operation.operationId)
    const sunset = operation['x-sunset']
    expect(projected?.deprecated, operation.operationId).toBe(operation.deprecated === true)
    expect(projected?.sunset, operation.operationId).toBe(
      sunset === undefined ? undefined : new Date(sunset).toISOString().slice(0, 10),
    )
  }
})
