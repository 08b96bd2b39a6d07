#!/usr/bin/env node
/**
 * The only file that listens. As the entry point (`pnpm start`, `dist/server.js`, and
 * `petstore serve` through `serve`) it reads the config once, opens the store, serves, and shuts
 * down gracefully on SIGTERM/SIGINT (stop accepting, drain in-flight requests, close the store,
 * exit 0); a bad configuration is one line on stderr and exit code 1, never a stack trace. As a
 * module it also exports `startPetstore`, a complete server for tests, docs and benchmarks.
 */
import cluster from 'node:cluster'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Plan } from '@petstore/types'
import type { FastifyInstance } from 'fastify'
import { buildApp } from './app.js'
import { issueApiKey } from './auth/api-key.js'
import { limitsLocation, openStore, StartError, storeLocation } from './backends.js'
import { superviseWorkers } from './cluster.js'
import { type Config, ConfigError, configTable, configWith, loadConfig } from './config.js'
import { limitOldGenerationGrowth } from './heap-growth.js'
import { closeIdleConnectionsLate, idleConnectionGraceMs } from './http/shutdown.js'
import { createLogDestination } from './log-destination.js'
import { exposeMetrics } from './metrics/index.js'
import { exposedFiles } from './store/sqlite/file-modes.js'
import type { Store } from './store/store.js'
import { startTracing, tracingProtocol } from './tracing/index.js'
import { apiBasePath, baseUrl, docsPath } from './urls.js'

export interface RunningPetstore {
  /** Base URL without `/v1`, e.g. `http://127.0.0.1:43567`. */
  url: string
  /** Creates an API key and returns the raw key. */
  issueKey(input: {
    plan: Plan
    name?: string
    perMinute?: number
    perDay?: number
  }): Promise<string>
  /** Stops the server, closes the store and removes its temporary directory. */
  close(): Promise<void>
}

/**
 * Starts a server on 127.0.0.1, port 0, with a fresh SQLite file in a temporary directory and
 * logging off, unless `overrides` say otherwise. The environment is not read.
 *
 * @example
 * ```ts
 * const petstore = await startPetstore()
 * const key = await petstore.issueKey({ plan: 'free' })
 * await fetch(`${petstore.url}/v1/pets`, { headers: { authorization: `Bearer ${key}` } })
 * await petstore.close()
 * ```
 */
export async function startPetstore(overrides: Partial<Config> = {}): Promise<RunningPetstore> {
  const tempDir =
    overrides.dbPath === undefined ? mkdtempSync(join(tmpdir(), 'petstore-')) : undefined
  const config = configWith({
    host: '127.0.0.1',
    port: 0,
    logLevel: 'silent',
    ...(tempDir === undefined ? {} : { dbPath: join(tempDir, 'petstore.db') }),
    ...overrides,
  })
  const store = await openStore(config, { server: true })
  const app = await buildApp(config, { store })
  await app.listen({ host: config.host, port: config.port })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('server has no TCP address')
  let closed = false
  return {
    url: baseUrl(address.address, address.port),
    async issueKey(input) {
      return (await issueApiKey(store.keys, input)).rawKey
    },
    async close() {
      if (closed) return
      closed = true
      await app.close()
      await store.close()
      if (tempDir !== undefined) rmSync(tempDir, { recursive: true, force: true })
    },
  }
}

/**
 * Logs are written in blocks of at least this many bytes, and at most `maxDelayMs` late
 * (log-destination.ts), not one write per line (one per request at info level). What is
 * pending is written when the process exits; a crash can lose the last second of lines, never
 * an acknowledged write (those are in the store).
 */
const logBlock = { minBytes: 8 * 1024, maxDelayMs: 1000, maxPendingBytes: 4 * 1024 * 1024 }

function fail(message: string): never {
  process.stderr.write(`petstore: ${message}\n`)
  process.exit(1)
}

/**
 * Runs the service until SIGTERM or SIGINT, configured by `env` (`PORT`, `HOST`, `PETSTORE_*`,
 * `DATABASE_URL`, `REDIS_URL`, `LOG_LEVEL`, and for traces `OTEL_*`: tracing/index.ts); resolves
 * once it listens. Owns the process: it exits on a bad configuration and at the end of shutdown.
 * With `PETSTORE_WORKERS` above 1 this process becomes the cluster's primary (`cluster.ts`) and
 * each worker runs this function again.
 */
export async function serve(
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<void> {
  limitOldGenerationGrowth()
  let config: Config
  let store: Store
  try {
    config = loadConfig(env)
    tracingProtocol(env)
    store = await openStore(config, { server: true })
  } catch (error) {
    if (error instanceof ConfigError || error instanceof StartError) fail(error.message)
    throw error
  }
  if (config.workers > 1 && cluster.isPrimary) {
    // Opening the store migrated it once, before any worker races for the advisory lock.
    await store.close()
    superviseWorkers(config, env)
    return
  }
  const logStream = createLogDestination(1, logBlock)
  // Each worker traces on its own: the primary serves no request.
  const tracing = await startTracing(env)
  let app: FastifyInstance
  try {
    app = await buildApp(config, { store, logStream, tracing })
  } catch (error) {
    await store.close()
    if (error instanceof StartError) fail(error.message)
    throw error
  }
  try {
    await app.listen({ host: config.host, port: config.port })
  } catch (error) {
    await app.close()
    await store.close()
    fail(`cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`)
  }
  try {
    await exposeMetrics(app, config)
  } catch (error) {
    await app.close()
    await store.close()
    fail(
      `cannot listen for metrics on ${config.metricsHost}:${config.metricsPort}: ${(error as Error).message}`,
    )
  }
  // Before the start is announced: a signal sent as soon as "listening" is read must drain.
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    app.log.info({ signal }, 'shutting down: draining in-flight requests')
    const deadline = setTimeout(() => {
      app.log.error('in-flight requests did not finish in time; exiting')
      process.exit(1)
    }, config.shutdownSeconds * 1000)
    deadline.unref()
    closeIdleConnectionsLate(app, idleConnectionGraceMs)
    await app.close()
    await store.close()
    await tracing?.shutdown()
    app.log.info('stopped')
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
  await announce(app, config, store)
  logStream.flush()
}

async function announce(app: FastifyInstance, config: Config, store: Store): Promise<void> {
  const address = app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : config.port
  const base = baseUrl(config.host, port)
  const api = `${base}${apiBasePath}`
  const docs = `${base}${docsPath}`
  const location = { url: api, db: storeLocation(config), limits: limitsLocation(config) }
  if (existsSync(join(config.docsDir, 'index.html'))) {
    app.log.info({ ...location, docs }, `listening on ${api}, docs at ${docs}`)
  } else {
    app.log.info(location, `listening on ${api}`)
    app.log.warn(
      { docsDir: config.docsDir },
      `no docs at ${docs}: ${config.docsDir} has no index.html (set ${configTable.docsDir.variable})`,
    )
  }
  if (config.databaseUrl === undefined) warnIfExposed(app, config.dbPath)
  if ((await store.keys.countActive()) === 0) {
    app.log.info(
      'no API key exists yet: create one with `petstore keys create --plan free` (`pnpm -s petstore …` in the repository)',
    )
  }
}

/** One line when other local users can read the database: the server leaves modes as they are. */
function warnIfExposed(app: FastifyInstance, dbPath: string): void {
  const exposed = exposedFiles(dbPath)
  if (exposed.length === 0) return
  app.log.warn(
    { files: exposed },
    `other local users can reach the database: ${exposed.join(', ')}; make the folder 0700 and the files 0600 (chmod) to keep its keys and secrets private`,
  )
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await serve()
