import { describe, expect, it } from 'vitest'
import { addressScript, correctedAddress, legacyAnchors } from '../src/address.js'
import { spec } from './helpers.js'

const anchors = legacyAnchors(spec)

describe('legacyAnchors', () => {
  it('maps Redoc 2 operation and tag anchors to Redoc 3 routes', () => {
    expect(anchors).toEqual({
      'operation/listPets': '/pets/listpets',
      'operation/createPet': '/pets/createpet',
      'operation/getPet': '/pets/getpet',
      'tag/pets': '/pets',
      'operation/getOpenApiDocument': '/meta/getopenapidocument',
      'operation/getOpenApiDocumentOptions': '/meta/getopenapidocumentoptions',
      'tag/meta': '/meta',
    })
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
    expect(correctedAddress(anchors, at('/docs/', '#operation/getPet'))).toBe('/docs/#/pets/getpet')
    expect(correctedAddress(anchors, at('/docs', '#section/Deprecation-policy'))).toBe(
      '/docs/#/section/deprecation-policy',
    )
    expect(correctedAddress(anchors, at('/', '#/pets/getpet'))).toBeUndefined()
  })
})

describe('addressScript', () => {
  it('applies the same rules in the page', () => {
    const cases = [
      ['/docs', '#operation/createPet'],
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
