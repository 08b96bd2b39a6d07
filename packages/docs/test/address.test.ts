import { describe, expect, it } from 'vitest'
import { addressScript, correctedAddress, hashRouteLinks, legacyAnchors } from '../src/address.js'
import { listOperations } from '../src/openapi.js'
import { spec } from './helpers.js'

const anchors = legacyAnchors(spec)
const deprecated = listOperations(spec).find(({ operation }) => operation.deprecated)?.operation

describe('legacyAnchors', () => {
  it('maps Redoc 2 operation and tag anchors to Redoc 3 routes', () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/a': { get: { operationId: 'listAs', tags: ['things'] } },
        '/b': { post: { operationId: 'makeB', tags: ['other', 'things'] }, put: {} },
      },
    }
    expect(legacyAnchors(document)).toEqual({
      'operation/listAs': '/things/listas',
      'tag/things': '/things',
      'operation/makeB': '/other/makeb',
      'tag/other': '/other',
    })
  })

  it("has an anchor for every operation of the spec, under its first tag's route", () => {
    for (const { operation } of listOperations(spec)) {
      const id = operation.operationId ?? ''
      const tag = (operation as { tags?: string[] }).tags?.[0]
      expect(anchors[`operation/${id}`], `operation ${id}`).toBe(`/${tag}/${id.toLowerCase()}`)
      expect(anchors[`tag/${tag}`], `tag ${tag} of ${id}`).toBe(`/${tag}`)
    }
  })
})

describe('correctedAddress', () => {
  const at = (pathname: string, hash = '', search = '') => ({ pathname, hash, search })

  it('adds the slash a mount path needs, keeping query and hash', () => {
    expect(correctedAddress(anchors, at('/docs', '#/pets', '?a=1'))).toBe('/docs/?a=1#/pets')
    expect(correctedAddress(anchors, at('/docs/index.html'))).toBeUndefined()
    expect(correctedAddress(anchors, at('/'))).toBeUndefined()
  })

  it('rewrites old anchors, including the deprecation Link targets', () => {
    const id = deprecated?.operationId ?? ''
    expect(correctedAddress(anchors, at('/docs/', `#operation/${id}`))).toBe(
      `/docs/#${anchors[`operation/${id}`]}`,
    )
    expect(correctedAddress(anchors, at('/docs', '#section/Deprecation-policy'))).toBe(
      '/docs/#/section/deprecation-policy',
    )
    expect(correctedAddress(anchors, at('/', '#/pets/getpet'))).toBeUndefined()
  })
})

describe('addressScript', () => {
  it('applies the same rules in the page', () => {
    const cases = [
      ['/docs', `#operation/${deprecated?.operationId}`],
      ['/docs/', '#section/Rate-limits'],
      ['/docs/', '#/pets'],
      ['/x', ''],
    ] as const
    for (const [pathname, hash] of cases) {
      let replaced: string | undefined
      const location = { pathname, hash, search: '' }
      const history = { replaceState: (_s: unknown, _t: string, url: string) => (replaced = url) }
      new Function('location', 'history', addressScript(anchors))(location, history)
      expect(replaced).toBe(correctedAddress(anchors, location))
    }
  })
})

describe('hashRouteLinks', () => {
  it("makes Redoc's route links hash routes, and leaves other links and scripts alone", () => {
    const html = [
      '<a class="m" href="/">Home</a><a href="/section/errors" data-discover="true">Errors</a>',
      '<a href="//cdn.example/x">cdn</a><a href="openapi.json">spec</a><a href="#/pets">pets</a>',
      '<script>const link = \'<a href="/pets/getpet">\'</script>',
    ].join('')
    expect(hashRouteLinks(html)).toBe(
      [
        '<a class="m" href="#/">Home</a><a href="#/section/errors" data-discover="true">Errors</a>',
        '<a href="//cdn.example/x">cdn</a><a href="openapi.json">spec</a><a href="#/pets">pets</a>',
        '<script>const link = \'<a href="/pets/getpet">\'</script>',
      ].join(''),
    )
  })
})
