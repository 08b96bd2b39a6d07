import { describe, expect, it } from 'vitest'
import { type HttpCall, Rotation, runLoad } from '../src/load.js'
import { walkListing } from '../src/probe.js'
import { coldWalkWorkload } from '../src/workloads.js'
import { servedDataPathCeiling } from './helpers.js'

const call = (path: string): HttpCall => ({ method: 'GET', path, headers: { 'x-n': path } })

describe('Rotation', () => {
  type Next = (request: object) => { path: string; port: number }

  it('hands out the calls in turn, one shared position, over the defaults', () => {
    const next = new Rotation([call('/a'), call('/b'), call('/c')]).request().setupRequest as Next
    const paths = Array.from({ length: 7 }, () => next({ port: 8 }))
    expect(paths.map((request) => request.path)).toEqual(['/a', '/b', '/c', '/a', '/b', '/c', '/a'])
    expect(paths[0]?.port).toBe(8)
  })

  it('goes on in the next run where the last one stopped', () => {
    const rotation = new Rotation([call('/a'), call('/b'), call('/c')])
    const first = rotation.request().setupRequest as Next
    expect([first({}), first({})].map((request) => request.path)).toEqual(['/a', '/b'])
    const second = rotation.request().setupRequest as Next
    expect([second({}), second({})].map((request) => request.path)).toEqual(['/c', '/a'])
  })
})

describe('a cold walk', () => {
  const ceiling = servedDataPathCeiling({ count: 45 })

  it('finds every page of a listing through its next links', async () => {
    const pages = await walkListing(ceiling.url, {}, 'limit=20')
    expect(pages).toEqual([
      { cursor: undefined, afterId: 0 },
      { cursor: '20', afterId: 20 },
      { cursor: '40', afterId: 40 },
    ])
    const available = await walkListing(ceiling.url, {}, 'limit=10&status=available')
    expect(available.map((page) => page.afterId)).toEqual([0, 19, 39])
  })

  it('sends the service its cursors and the data-path ceiling the ids, every page once a lap', async () => {
    const pages = [
      { cursor: undefined, afterId: 0 },
      { cursor: 'a.b=', afterId: 20 },
    ]
    const walk = coldWalkWorkload('k', { id: 'walk-20', query: 'limit=20', data: '45 pets' }, pages)
    expect(walk.rotation?.service.map((entry) => entry.path)).toEqual([
      '/v1/pets?limit=20',
      '/v1/pets?limit=20&cursor=a.b%3D',
    ])
    expect(walk.rotation?.['data-path'].map((entry) => entry.path)).toEqual([
      '/v1/pets?limit=20',
      '/v1/pets?limit=20&cursor=20',
    ])
    expect(walk.calls.wire.path).toBe('/v1/pets?limit=20')
    const load = await runLoad({
      url: ceiling.url,
      calls: new Rotation(walk.rotation?.['data-path'] ?? []),
      connections: 4,
      seconds: 0.3,
    })
    expect(load.ok).toBeGreaterThan(0)
    expect(load.non2xx + load.errors).toBe(0)
  })
})
