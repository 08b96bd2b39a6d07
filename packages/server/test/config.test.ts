import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  ConfigError,
  type ConfigRow,
  configTable,
  configWith,
  loadConfig,
  productionWindows,
} from '../src/config.js'
import {
  configTableCells,
  readmeConfigTable,
  readmePath,
  renderConfigTable,
} from './config-table.js'

const rows = Object.entries(configTable) as [keyof typeof configTable, ConfigRow<unknown>][]

/** The error `loadConfig(env)` throws, or undefined. */
function refusal(env: Record<string, string>): unknown {
  try {
    loadConfig(env)
  } catch (error) {
    return error
  }
  return undefined
}

describe('configTable', () => {
  it('names each variable once', () => {
    const names = rows.map(([, row]) => row.variable)
    expect(new Set(names).size).toBe(names.length)
  })

  it.each(rows)('%s: unset or blank, it is its default', (field, row) => {
    const expected = typeof row.default === 'function' ? row.default() : row.default
    expect(loadConfig({})[field]).toEqual(expected)
    expect(loadConfig({ [row.variable]: '  ' })[field]).toEqual(expected)
  })

  it.each(
    rows.flatMap(([field, row]) =>
      row.parser.examples.map(([raw, value]) => [row.variable, raw, field, value] as const),
    ),
  )('reads %s=%j', (variable, raw, field, value) => {
    // PostgreSQL and Redis, so that any worker count is allowed.
    const shared = { DATABASE_URL: 'postgres://u@h/db', REDIS_URL: 'redis://h' }
    expect(loadConfig({ ...shared, [variable]: ` ${raw} ` })[field]).toEqual(value)
  })

  it.each(rows.flatMap(([, row]) => row.parser.refuses.map((raw) => [row.variable, raw] as const)))(
    'refuses %s=%j with a one-line ConfigError naming it',
    (variable, raw) => {
      const error = refusal({ [variable]: raw })
      expect(error).toBeInstanceOf(ConfigError)
      expect((error as Error).message).toContain(variable)
      expect((error as Error).message).not.toContain('\n')
    },
  )

  it.each(rows.map(([, row]) => [row.variable, row] as const))(
    '%s: the README row says what the table says',
    (_variable, row) => {
      const readme = readFileSync(readmePath, 'utf8')
      const cells = readmeConfigTable(readme)
        .text.split('\n')
        .map((line) => line.split(' | ').map((cell) => cell.replace(/^\|? *| *\|?$/g, '')))
        .find((line) => line[0] === `\`${row.variable}\``)
      expect(
        cells,
        `packages/server/README.md: the ${row.variable} row differs from configTable in src/config.ts (pnpm --filter @petstore/server run readme:config rewrites it)`,
      ).toEqual(configTableCells().get(row.variable))
    },
  )

  it('is the README table, formatted, with no other row', () => {
    const readme = readFileSync(readmePath, 'utf8')
    expect(
      readmeConfigTable(readme).text,
      'packages/server/README.md: run pnpm --filter @petstore/server run readme:config',
    ).toBe(renderConfigTable())
  })
})

describe('loadConfig', () => {
  it('is frozen, its lists too', () => {
    const config = loadConfig({ PETSTORE_CORS_ORIGINS: 'https://a.example' })
    expect(Object.isFrozen(config)).toBe(true)
    expect(Object.isFrozen(config.corsOrigins)).toBe(true)
    expect(() => {
      ;(config as { port: number }).port = 1
    }).toThrow()
  })

  it('has the production rate-limit windows, which no variable changes', () => {
    expect(loadConfig({}).rateLimitWindows).toBe(productionWindows)
  })

  it('puts the default database at the workspace root, whatever the cwd', () => {
    const workspaceRoot = resolve(import.meta.dirname, '..', '..', '..')
    expect(loadConfig({}).dbPath).toBe(join(workspaceRoot, 'data', 'petstore.db'))
    expect(loadConfig({}).docsDir).toBe(join(workspaceRoot, 'packages', 'docs', 'dist'))
  })

  it.each([
    [{}, 'the embedded SQLite store is single-instance'],
    [{ DATABASE_URL: 'postgres://u@h/db' }, 'N workers would allow N times'],
  ])('refuses PETSTORE_WORKERS=2 with %j in one line saying why', (env, why) => {
    expect(() => loadConfig({ ...env, PETSTORE_WORKERS: '2' })).toThrow(
      expect.objectContaining({
        name: 'ConfigError',
        message: expect.stringMatching(new RegExp(`^PETSTORE_WORKERS=2 needs .*${why}[^\n]*$`)),
      }),
    )
  })

  it('runs several workers on PostgreSQL and Redis', () => {
    const env = { DATABASE_URL: 'postgres://u@h/db', REDIS_URL: 'redis://h', PETSTORE_WORKERS: '4' }
    expect(loadConfig(env).workers).toBe(4)
  })

  it('configWith applies overrides on the defaults without reading the environment', () => {
    expect(configWith({ port: 0 }).port).toBe(0)
  })
})
