import { openapiDocument } from '@petstore/types/spec'
import { expect, it } from 'vitest'
import { apiBasePath, baseUrl } from '../src/urls.js'

it('takes the API base path from the spec’s first server', () => {
  const first = (openapiDocument as { servers: { url: string }[] }).servers[0]?.url ?? ''
  expect(new URL(first, 'http://x').pathname).toBe(apiBasePath)
})

it.each([
  ['127.0.0.1', 'http://127.0.0.1:3000'],
  ['localhost', 'http://localhost:3000'],
  ['::1', 'http://[::1]:3000'],
  ['::', 'http://[::]:3000'],
])('spells the base URL of %s as %s', (host, url) => {
  expect(baseUrl(host, 3000)).toBe(url)
})
