import { isAbsolute, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, configWith, loadConfig } from '../src/config.js'

describe('loadConfig', () => {
  it('has the documented defaults, frozen', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      banThreshold: 10,
      banSeconds: 900,
      corsOrigins: '*',
      logLevel: 'info',
      requestTimeoutSeconds: 30,
      keepAliveSeconds: 5,
      maxConnections: 1000,
      trustProxy: false,
      databaseUrl: undefined,
      dbPoolSize: 10,
      redisUrl: undefined,
      limitsOnRedisError: 'closed',
      metricsPort: undefined,
      metricsHost: '127.0.0.1',
    })
    expect(config.dbPath.endsWith(join('data', 'petstore.db'))).toBe(true)
    expect(config.docsDir.endsWith(join('packages', 'docs', 'dist'))).toBe(true)
    expect(Object.isFrozen(config)).toBe(true)
    expect(() => {
      ;(config as { port: number }).port = 1
    }).toThrow()
  })

  it('puts the default database at the workspace root, whatever the cwd', () => {
    const workspaceRoot = resolve(import.meta.dirname, '..', '..', '..')
    expect(loadConfig({}).dbPath).toBe(join(workspaceRoot, 'data', 'petstore.db'))
  })

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      PETSTORE_DB: 'relative/x.db',
      DATABASE_URL: 'postgres://u@h/db',
      REDIS_URL: 'redis://localhost:6379',
      PETSTORE_DB_POOL: '4',
      PETSTORE_LIMITS_ON_REDIS_ERROR: 'local',
      PETSTORE_BAN_THRESHOLD: '3',
      PETSTORE_BAN_SECONDS: '60',
      PETSTORE_CORS_ORIGINS: 'https://a.example, http://localhost:5173',
      PETSTORE_DOCS_DIR: '/srv/docs',
      PETSTORE_CURSOR_SECRET: 's'.repeat(32),
      PETSTORE_SHUTDOWN_SECONDS: '3',
      PETSTORE_REQUEST_TIMEOUT_SECONDS: '10',
      PETSTORE_KEEP_ALIVE_SECONDS: '7',
      PETSTORE_MAX_CONNECTIONS: '256',
      PETSTORE_TRUST_PROXY: '10.0.0.0/8, 192.168.1.1, ::1, fd00::/8',
      PETSTORE_WORKERS: '4',
      PETSTORE_METRICS_PORT: '9464',
      PETSTORE_METRICS_HOST: '0.0.0.0',
      LOG_LEVEL: 'DEBUG',
    })
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: 'postgres://u@h/db',
      redisUrl: 'redis://localhost:6379',
      dbPoolSize: 4,
      limitsOnRedisError: 'local',
      banThreshold: 3,
      banSeconds: 60,
      corsOrigins: ['https://a.example', 'http://localhost:5173'],
      docsDir: '/srv/docs',
      shutdownSeconds: 3,
      requestTimeoutSeconds: 10,
      keepAliveSeconds: 7,
      maxConnections: 256,
      trustProxy: ['10.0.0.0/8', '192.168.1.1', '::1', 'fd00::/8'],
      workers: 4,
      metricsPort: 9464,
      metricsHost: '0.0.0.0',
      logLevel: 'debug',
    })
    expect(isAbsolute(config.dbPath)).toBe(true)
    expect(config.dbPath).toBe(resolve(process.cwd(), 'relative/x.db'))
  })

  it.each([
    ['PORT', '3.5'],
    ['PORT', '-1'],
    ['PORT', '65536'],
    ['PETSTORE_BAN_THRESHOLD', 'ten'],
    ['PETSTORE_BAN_SECONDS', '0'],
    ['PETSTORE_CORS_ORIGINS', 'https://a.example/path'],
    ['PETSTORE_CORS_ORIGINS', 'ftp://a.example'],
    ['DATABASE_URL', 'sqlite://x'],
    ['REDIS_URL', 'not a url'],
    ['PETSTORE_DB_POOL', '0'],
    ['PETSTORE_LIMITS_ON_REDIS_ERROR', 'open'],
    ['LOG_LEVEL', 'verbose'],
    ['PETSTORE_CURSOR_SECRET', 'too-short'],
    ['PETSTORE_REQUEST_TIMEOUT_SECONDS', '0'],
    ['PETSTORE_KEEP_ALIVE_SECONDS', 'soon'],
    ['PETSTORE_MAX_CONNECTIONS', '0'],
    ['PETSTORE_TRUST_PROXY', 'yes'],
    ['PETSTORE_METRICS_PORT', '65536'],
    ['PETSTORE_METRICS_PORT', 'on'],
    ['PETSTORE_TRUST_PROXY', '10.0.0.0/33'],
    ['PETSTORE_TRUST_PROXY', '300.1.1.1'],
    ['PETSTORE_TRUST_PROXY', '101'],
    ['PETSTORE_WORKERS', '0'],
    ['PETSTORE_WORKERS', 'two'],
    ['PETSTORE_WORKERS', '257'],
  ])('rejects %s=%s with a one-line message naming it', (name, value) => {
    let error: unknown
    try {
      loadConfig({ [name]: value })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toContain(name)
    expect((error as Error).message).not.toContain('\n')
  })

  it('runs one process unless PETSTORE_WORKERS says otherwise', () => {
    expect(loadConfig({}).workers).toBe(1)
    expect(loadConfig({ PETSTORE_WORKERS: '1' }).workers).toBe(1)
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

  it.each([
    ['off', false],
    ['false', false],
    ['0', false],
    ['2', 2],
  ])('reads PETSTORE_TRUST_PROXY=%s', (raw, expected) => {
    expect(loadConfig({ PETSTORE_TRUST_PROXY: raw }).trustProxy).toEqual(expected)
  })

  it('configWith applies overrides on the defaults without reading the environment', () => {
    expect(configWith({ port: 0 }).port).toBe(0)
  })
})

it('reads PETSTORE_MAX_CONNECTIONS_PER_ADDRESS, 128 by default', () => {
  expect(loadConfig({}).maxConnectionsPerAddress).toBe(128)
  expect(loadConfig({ PETSTORE_MAX_CONNECTIONS_PER_ADDRESS: '8' }).maxConnectionsPerAddress).toBe(8)
  expect(() => loadConfig({ PETSTORE_MAX_CONNECTIONS_PER_ADDRESS: '0' })).toThrow(
    'PETSTORE_MAX_CONNECTIONS_PER_ADDRESS must be an integer from 1 to 1000000, got "0"',
  )
})
