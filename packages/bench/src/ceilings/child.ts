/**
 * Entry point of a ceiling's own process, so that ceilings run on loopback in a process of
 * their own, exactly like the service. The parent forks this file, sends one `CeilingConfig`
 * over IPC and waits for `{ port }`; SIGTERM stops the ceiling.
 */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createContractCeiling } from './contract.js'
import { createDataPathCeiling } from './data-path.js'
import { createFastifyContractCeiling } from './fastify-contract.js'
import { createPostgresDataPathCeiling } from './postgres-data-path.js'
import { type CannedRoutes, createWireCeiling } from './wire.js'

export type CeilingConfig =
  | { kind: 'wire'; routes: CannedRoutes }
  | { kind: 'data-path'; dbPath: string }
  /** The PostgreSQL data path (the scale-out bench), with the service's pool size. */
  | { kind: 'data-path'; databaseUrl: string; poolSize: number }
  /**
   * The contract ceiling: the service's contract work, the leanest way; logs to `logPath`. On
   * `fastify`, the same work served through Fastify (fastify-contract.ts).
   */
  | { kind: 'contract'; dbPath: string; logPath: string; fastify?: boolean }

export interface CeilingReady {
  port: number
}

async function start(config: CeilingConfig): Promise<void> {
  let server: Server
  let release: () => void | Promise<void> = () => {}
  if (config.kind === 'wire') {
    server = createWireCeiling(config.routes)
  } else if (config.kind === 'contract') {
    const ceiling = config.fastify
      ? await createFastifyContractCeiling(config.dbPath, config.logPath)
      : createContractCeiling(config.dbPath, config.logPath)
    server = ceiling.server
    release = ceiling.close
  } else {
    const ceiling =
      'databaseUrl' in config
        ? createPostgresDataPathCeiling(config.databaseUrl, config.poolSize)
        : createDataPathCeiling(config.dbPath)
    server = ceiling.server
    release = ceiling.close
  }
  server.keepAliveTimeout = 60_000
  server.listen(0, '127.0.0.1', () => {
    const ready: CeilingReady = { port: (server.address() as AddressInfo).port }
    process.send?.(ready)
  })
  process.once('SIGTERM', () => {
    server.close(async () => {
      await release()
      process.exit(0)
    })
    server.closeAllConnections()
  })
}

process.once('message', (config: CeilingConfig) => void start(config))
