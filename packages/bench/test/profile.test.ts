import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { areaOf, renderProfile, summarizeProfile } from '../src/profile.js'
import { tempDir } from './helpers.js'

const server = 'file:///repo/packages/server/dist/store/sqlite.js'
const fastify = 'file:///repo/node_modules/.pnpm/fastify@5.12.8/node_modules/fastify/lib/reply.js'

describe('areaOf', () => {
  it('names the dependency, the service folder, node or V8', () => {
    expect(areaOf(fastify, 'send')).toBe('fastify')
    expect(areaOf(server, 'list')).toBe('server/store')
    expect(areaOf('node:_http_server', 'emit')).toBe('node:_http_server')
    expect(areaOf('', '(garbage collector)')).toBe('(garbage collector)')
    expect(areaOf('', 'writev')).toBe('(native)')
  })
})

describe('summarizeProfile', () => {
  const temp = tempDir()
  afterAll(() => temp.remove())

  it('ranks self time of the busy samples, and reports idle apart', () => {
    const path = join(temp.dir, 'service.cpuprofile')
    const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 9 })
    writeFileSync(
      path,
      JSON.stringify({
        nodes: [
          { id: 1, callFrame: frame('(idle)', '') },
          { id: 2, callFrame: frame('list', server) },
          { id: 3, callFrame: frame('send', fastify) },
        ],
        samples: [1, 1, 2, 2, 2, 3],
        startTime: 0,
        endTime: 6,
      }),
    )
    const summary = summarizeProfile(path)
    expect(summary.idle).toBeCloseTo(2 / 6)
    expect(summary.areas).toEqual([
      { name: 'server/store', share: 0.75 },
      { name: 'fastify', share: 0.25 },
    ])
    expect(summary.functions[0]).toEqual({
      name: 'list packages/server/dist/store/sqlite.js:10',
      share: 0.75,
    })
    expect(renderProfile('service', summary)).toContain('75.0%  server/store')
  })
})
