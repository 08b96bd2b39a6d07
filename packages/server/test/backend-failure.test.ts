/**
 * The one home for backend failure: the outage log (once per condition), and the rule that keeps
 * it one home: drivers' codes stay in their adapters, which wrap them into
 * BackendUnavailableError; errors.ts maps that class and knows no driver.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { expect, it } from 'vitest'
import { BackendUnavailableError, createOutages } from '../src/backend-failure.js'
import { toProblem } from '../src/errors.js'

function recordingLog() {
  const lines: string[] = []
  const record =
    (level: string) =>
    (fields: unknown, message?: string): void => {
      lines.push(`${level} ${message} ${JSON.stringify(fields)}`)
    }
  const log = { error: record('error'), info: record('info') }
  return { lines, log }
}

const sqlite = (condition: 'full' | 'moved', code: string, message: string) =>
  new BackendUnavailableError('sqlite', condition, {
    cause: Object.assign(new Error(message), { code }),
  })

it('logs a fault once per condition while it lasts, again when it changes, and the recovery once', () => {
  const { lines, log } = recordingLog()
  const outages = createOutages(log)
  for (let i = 0; i < 5; i++) {
    // The same condition with another detail (each request's own message) is the same fault.
    outages.failed('store', sqlite('full', 'SQLITE_FULL', `database or disk is full (${i})`))
  }
  expect(lines).toHaveLength(1)
  expect(lines[0]).toContain('error the store cannot serve requests')
  expect(lines[0]).toContain('"condition":"full"')
  expect(lines[0]).toContain('SQLITE_FULL')
  const before = outages.changes()

  outages.failed('store', sqlite('moved', 'SQLITE_READONLY_DBMOVED', 'moved'))
  expect(lines).toHaveLength(2)
  outages.recovered('store')
  outages.recovered('store')
  expect(lines.slice(2)).toEqual([expect.stringContaining('info the store serves requests again')])
  expect(outages.changes()).toBe(before + 2)
  outages.failed('store', sqlite('full', 'SQLITE_FULL', 'full'))
  expect(lines).toHaveLength(4)
})

it('keeps each backend apart, with the message its reporter gives', () => {
  const { lines, log } = recordingLog()
  const outages = createOutages(log)
  const lost = new BackendUnavailableError('redis', 'unreachable')
  outages.failed('limits', lost, 'Redis is not reachable: refusing')
  outages.failed('limits', lost, 'Redis is not reachable: refusing')
  outages.recovered('store')
  outages.failed('store', lost)
  expect(lines).toHaveLength(2)
  expect(lines[0]).toMatch(/^error Redis is not reachable: refusing .*"backend":"limits"/)
  outages.recovered('limits', 'Redis is back')
  expect(lines[2]).toMatch(/^info Redis is back .*"backend":"limits"/)
})

it('answers the one class 503 with Retry-After, and a driver error it does not know 500', () => {
  const refused = toProblem(new BackendUnavailableError('postgres', 'read-only'))
  expect([refused.status, refused.code, refused.headers['retry-after']]).toEqual([
    503,
    'service_unavailable',
    '1',
  ])
  // A raw driver error is the adapter's to classify: reaching the edge unwrapped, it is a bug.
  const raw = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })
  expect(toProblem(raw).status).toBe(500)
})

const src = join(import.meta.dirname, '..', 'src')

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
}

/** What each source file imports, as paths relative to src/ (packages by name). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/^(?:import|export)[^'"]*from\s+['"]([^'"]+)['"]/gm)].map(
    ([, specifier = '']) =>
      specifier.startsWith('.')
        ? relative(src, join(file, '..', specifier)).replace(/\.js$/, '.ts')
        : specifier,
  )
}

it('keeps drivers in their adapters: stores and limiters import neither errors.ts nor http/', () => {
  // The rate-limit hook and headers are HTTP's side of limiting; the limiters are adapters.
  const adapters = sources(src).filter((file) =>
    /^store\/|^rate-limit\/(redis|memory|limiter|circuit-breaker)/.test(relative(src, file)),
  )
  expect(adapters.length).toBeGreaterThan(10)
  const arrows = adapters.flatMap((file) =>
    importsOf(file)
      .filter((target) => target === 'errors.ts' || target.startsWith('http/'))
      .map((target) => `${relative(src, file)} -> ${target}`),
  )
  expect(arrows).toEqual([])
})

it('keeps the HTTP edge free of drivers: errors.ts and http/ know no driver or its codes', () => {
  const edge = [join(src, 'errors.ts'), ...sources(join(src, 'http'))]
  for (const file of edge) {
    const drivers = importsOf(file).filter((target) =>
      /^(pg|ioredis|better-sqlite3)$|^store\/(sqlite|postgres)\/|^rate-limit\/redis/.test(target),
    )
    expect({ file: relative(src, file), drivers }).toEqual({
      file: relative(src, file),
      drivers: [],
    })
    expect(readFileSync(file, 'utf8')).not.toMatch(/SQLITE_[A-Z]|ECONNREFUSED|\b(53100|25006)\b/)
  }
})
