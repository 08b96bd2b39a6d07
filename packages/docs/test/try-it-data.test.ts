import { expect, it } from 'vitest'
import { tryItData } from '../src/try-it-data.js'
import { spec } from './helpers.js'

it('projects every operation with its parameters, examples and first body example', () => {
  const data = tryItData(spec, 'https://pets.test/v1')
  expect(data.apiBaseUrl).toBe('https://pets.test/v1')
  expect(data.servers.map((s) => s.url)).toEqual(spec.servers?.map((s) => s.url))
  const [listPets, createPet, getPet] = data.operations
  expect(listPets).toMatchObject({ operationId: 'listPets', method: 'get', path: '/pets' })
  expect(listPets?.parameters.find((p) => p.name === 'status')).toMatchObject({
    in: 'query',
    required: false,
    example: 'available',
    enum: ['available', 'pending', 'sold'],
  })
  expect(JSON.parse(createPet?.body ?? '')).toEqual({ name: 'Rex', categoryId: 1 })
  expect(getPet).toMatchObject({ deprecated: true, sunset: '2030-12-05' })
  expect(getPet?.parameters[0]).toMatchObject({
    name: 'petId',
    in: 'path',
    required: true,
    example: '1',
  })
})
