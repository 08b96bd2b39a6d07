import { describe, expect, it } from 'vitest'
import { findLink, nextPage, parseLinks } from '../../src/http/link.js'

describe('parseLinks', () => {
  it('reads several links with their parameters', () => {
    expect(
      parseLinks(
        '</docs#getPet>; rel="deprecation"; type="text/html", </v1/pets>; rel=successor-version',
      ),
    ).toEqual([
      {
        href: '/docs#getPet',
        rel: ['deprecation'],
        params: { rel: 'deprecation', type: 'text/html' },
      },
      { href: '/v1/pets', rel: ['successor-version'], params: { rel: 'successor-version' } },
    ])
  })

  it('splits rel into lower-case relation types', () => {
    expect(parseLinks('<https://x.example/a?b=1,2>; REL="Next Last"')[0]?.rel).toEqual([
      'next',
      'last',
    ])
  })

  it('keeps commas inside the URL', () => {
    expect(parseLinks('<https://x.example/a?b=1,2>; rel="next"')[0]?.href).toBe(
      'https://x.example/a?b=1,2',
    )
  })

  it('returns nothing for no header', () => {
    expect(parseLinks(null)).toEqual([])
  })
})

describe('findLink', () => {
  it('resolves the link against the response URL', () => {
    const headers = new Headers({ Link: '</v1/pets?limit=20&cursor=abc>; rel="next"' })
    expect(findLink(headers, 'next', 'http://127.0.0.1:3000/v1/pets?limit=20')).toBe(
      'http://127.0.0.1:3000/v1/pets?limit=20&cursor=abc',
    )
    expect(findLink(headers, 'prev', 'http://127.0.0.1:3000/v1/pets')).toBeUndefined()
  })
})

describe('nextPage', () => {
  it('resolves the next link and reads its cursor', () => {
    const headers = new Headers({ Link: '</v1/pets?limit=1&cursor=abc>; rel="next"' })
    expect(nextPage(headers, 'http://api.example/v1/pets')).toEqual({
      url: 'http://api.example/v1/pets?limit=1&cursor=abc',
      cursor: 'abc',
    })
    expect(nextPage(new Headers(), 'http://api.example/v1/pets')).toBeUndefined()
  })
})
