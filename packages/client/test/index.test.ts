import { expect, it } from 'vitest'
import { CLIENT_NAME } from '../src/index.js'

it('names the client', () => {
  expect(CLIENT_NAME).toBe('@petstore/client')
})
