/**
 * The instruction counts, on the real built service and contract ceiling under valgrind, briefly:
 * each window is counted, and the split by origin puts the service's code on the service only and
 * adds up to the count. The run is the built bench's (`dist`): the ceiling is forked from its
 * built child entry.
 */
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { jitNames, originOf } from '../src/callgrind.js'
import { instructionsTable, leanest } from '../src/instructions.js'

const serverDir = fileURLToPath(new URL('../../server/', import.meta.url))

describe('originOf', () => {
  it('tells JavaScript by its file, and V8 and Node code by their names', () => {
    const cases = {
      'JS:*admit <server>/dist/http/v1.js:27:19': 'the service',
      'JS:*commit <bench>/dist/ceilings/contract.js:195:20': 'the ceiling',
      'JS:*routeHandler /srv/node_modules/.pnpm/fastify@5.12.8/node_modules/fastify/lib/route.js:465:25':
        'npm packages (Fastify, its router, ajv, pino)',
      'JS:*validate23 :3:157': 'code generated at run time (validators, serializers)',
      'JS:*onFinish node:_http_outgoing:1029:18': "Node's JavaScript",
      'RegExp:^bearer[ \\t]+(\\S+)[ \\t]*$': 'regular expressions',
      'Builtins_KeyedLoadIC_Megamorphic [/usr/bin/node]': 'V8 property access (inline caches)',
      'Builtins_FulfillPromise [/usr/bin/node]': 'V8 promises and microtasks',
      'Builtins_StringAdd_CheckNone [/usr/bin/node]': 'V8 builtins, other',
      'v8::internal::Scavenger::Process(v8::JobDelegate*) [/usr/bin/node]': 'garbage collection',
      'v8::internal::compiler::GraphReducer::ReduceTop() [/usr/bin/node]': 'compilers',
      'node::(anonymous namespace)::Parser::on_headers_complete() [/usr/bin/node]':
        "Node's C++, libuv, llhttp",
      'sqlite3VdbeExec [/srv/better-sqlite3/build/Release/better_sqlite3.node]': 'SQLite',
    }
    for (const [name, origin] of Object.entries(cases)) expect(originOf(name), name).toBe(origin)
  })
})

describe('jitNames', () => {
  it('names an address by the last line written that covers it', () => {
    const name = jitNames(
      [
        'd0bde00 42c JS:^allowSet fast-uri/lib/schemes.js:278:19',
        'd0be000 100 JS:*other',
        'd0bde00 2e4 RegExp:[^\\t\\x20-\\x7e\\x80-\\xff]',
        '',
      ].join('\n'),
    )
    expect(name(0xd0bde10)).toBe('RegExp:[^\\t\\x20-\\x7e\\x80-\\xff]')
    expect(name(0xd0be0d4)).toBe('RegExp:[^\\t\\x20-\\x7e\\x80-\\xff]')
    expect(name(0xd0be0f4)).toBe('JS:*other')
    // Past both, only the first, longer line covers it.
    expect(name(0xd0be180)).toBe('JS:^allowSet fast-uri/lib/schemes.js:278:19')
    expect(name(0xd0bde00 - 1)).toBeUndefined()
    expect(name(0xd0be22c)).toBeUndefined()
  })
})

describe('leanest', () => {
  const counted = (steadyPerRequest: number) => ({
    target: 'base' as const,
    perRequest: steadyPerRequest + 1000,
    windows: [steadyPerRequest + 1000],
    steadyPerRequest,
    steadyWindows: [steadyPerRequest],
    byOrigin: new Map(),
    byFunction: new Map([[`fn of ${steadyPerRequest}`, steadyPerRequest]]),
  })

  it('keeps the process with the lowest count, whole, and lists every process in order', () => {
    const row = leanest([counted(200_330), counted(176_568), counted(177_102)])
    expect(row.steadyPerRequest).toBe(176_568)
    expect([...row.byFunction.keys()]).toEqual(['fn of 176568'])
    expect(row.processes).toEqual([200_330, 176_568, 177_102])
    const table = instructionsTable([{ ...row, target: 'service' }, row], 'contract ceiling')
    expect(table).toContain(
      '| each process without the compilers (the lowest stands) | 200,330, 176,568, 177,102 |',
    )
  })
})

describe('measureInstructions', () => {
  it('counts both targets window by window and splits each count by origin', async () => {
    const built: string = '../dist/instructions.js'
    const { measureInstructions, instructionsTable } = (await import(
      built
    )) as typeof import('../src/instructions.js')
    const rows = await measureInstructions(
      serverDir,
      // One process per target: a second doubles the minute valgrind takes (leanest below).
      { workload: 'create', base: 'contract', requests: 100, windows: 2, processes: 1 },
      () => {},
    )
    expect(rows.map((row) => row.target)).toEqual(['service', 'base'])
    for (const row of rows) {
      expect(row.windows).toHaveLength(1)
      expect(row.processes).toEqual([row.steadyPerRequest])
      // A create is tens of thousands of instructions on either side.
      expect(row.perRequest).toBeGreaterThan(10_000)
      expect(row.steadyPerRequest).toBeGreaterThan(10_000)
      expect(row.steadyPerRequest).toBeLessThanOrEqual(row.perRequest)
      const split = [...row.byOrigin.values()].reduce((sum, n) => sum + n, 0)
      expect(split / row.perRequest).toBeCloseTo(1, 2)
    }
    const [service, ceiling] = rows as [(typeof rows)[0], (typeof rows)[0]]
    expect(service.byOrigin.get('the service')).toBeGreaterThan(0)
    expect(ceiling.byOrigin.get('the service') ?? 0).toBe(0)
    expect(ceiling.byOrigin.get('the ceiling')).toBeGreaterThan(0)
    expect(instructionsTable(rows, 'contract ceiling')).toContain('| median of the windows')
  }, 300_000)
})
