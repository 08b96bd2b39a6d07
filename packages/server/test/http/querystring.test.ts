import { expect, it } from 'vitest'
import { parseQueryString } from '../../src/http/querystring.js'

it('keeps raw strings and collects repeated names', () => {
  expect({ ...parseQueryString('limit=010&status=a&status=b&status=c&cursor=') }).toEqual({
    limit: '010',
    status: ['a', 'b', 'c'],
    cursor: '',
  })
})

it('decodes percent-escapes and treats __proto__ as a plain name', () => {
  const parsed = parseQueryString('name=a%20b&__proto__=x&constructor=y')
  expect(parsed.name).toBe('a b')
  expect(Object.getOwnPropertyDescriptor(parsed, '__proto__')?.value).toBe('x')
  expect(Object.getPrototypeOf(parsed)).toBeNull()
})
