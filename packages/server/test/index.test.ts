import { expect, it } from 'vitest'
import { SERVICE_NAME } from '../src/index.js'

it('names the service', () => {
  expect(SERVICE_NAME).toBe('petstore')
})
