#!/usr/bin/env node
/**
 * The only file that listens: reads the config once, opens the store (and Redis), serves, and
 * shuts down gracefully on SIGTERM/SIGINT (stop accepting, drain in-flight requests, close the
 * store, exit 0). A bad configuration is one line on stderr and exit code 1, never a stack trace.
 */
import type { FastifyInstance } from 'fastify'
import { pino } from 'pino'
import { buildApp } from './app.js'
import { openLimiter, openStore, redactUrl, StartError, storeLocation } from './backends/select.js'
import { type Config, ConfigError, loadConfig } from './config.js'
import type { RateLimiter } from './rate-limit/limiter.js'
import type { Store } from './store/store.js'

/**
 * Logs are written in blocks of at least this many bytes, and at most `logFlushMs` late: one
 * write per line (one per request at info level) was a seventh of the CPU time of a list
 * request. pino writes what is pending when the process exits; a crash can lose the last
 * second of lines, never an acknowledged write (those are in SQLite).
 */
const logBufferBytes = 8 * 1024
const logFlushMs = 1000

async function main(): Promise<void> {
  let config: Config
  let store: Store
  let limiter: RateLimiter | undefined
  try {
    config = loadConfig()
    store = await openStore(config)
    limiter = await openLimiter(config, {
      lost: (mode, error) =>
        app.log.error(
          { err: error, mode },
          mode === 'closed'
            ? 'Redis is not reachable: refusing /v1 requests with 503 until it is back'
            : "Redis is not reachable: limiting with this instance's memory until it is back",
        ),
      recovered: () => app.log.info('Redis is reachable again: limits are shared again'),
    }).catch(async (error: unknown) => {
      await store.close()
      throw error
    })
  } catch (error) {
    if (error instanceof ConfigError || error instanceof StartError) {
      process.stderr.write(`petstore: ${error.message}\n`)
      process.exit(1)
    }
    throw error
  }
  const logStream = pino.destination({ dest: 1, sync: false, minLength: logBufferBytes })
  setInterval(() => logStream.flush(), logFlushMs).unref()
  const app: FastifyInstance = await buildApp(config, { store, limiter, logStream })
  try {
    await app.listen({ host: config.host, port: config.port })
  } catch (error) {
    process.stderr.write(
      `petstore: cannot listen on ${config.host}:${config.port}: ${(error as Error).message}\n`,
    )
    await Promise.all([store.close(), limiter?.close()])
    process.exit(1)
  }

  const address = app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : config.port
  const host = config.host.includes(':') ? `[${config.host}]` : config.host
  const base = `http://${host}:${port}`
  app.log.info(
    {
      url: `${base}/v1`,
      docs: `${base}/docs`,
      db: storeLocation(config),
      limits: config.redisUrl === undefined ? 'memory' : redactUrl(config.redisUrl),
    },
    `listening on ${base}/v1, docs at ${base}/docs`,
  )
  if ((await store.keys.countActive()) === 0) {
    app.log.info('no API key exists yet: create one with `pnpm petstore keys create --plan free`')
  }
  logStream.flush()

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
    await app.close()
    await Promise.all([store.close(), limiter?.close()])
    app.log.info('stopped')
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
}

await main()
