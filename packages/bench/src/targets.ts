/**
 * The four things the bench drives, each in a process of its own on loopback: the built
 * service (`dist/server.js`, production log level, stdout to a log file) and the three ceilings
 * (the contract ceiling writes its own log file). Logs go to files, never to a pipe this
 * process would have to read while it drives the load.
 * A target is only an address and a pid (for RSS); the load generator stays in this process.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process'
import { openSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { freePort } from '@petstore/scripts/free-port'
import { startCommand } from '@petstore/scripts/start-command'
import type { CeilingConfig, CeilingReady } from './ceilings/child.js'

export type TargetName = 'service' | 'wire' | 'data-path' | 'contract'

export interface Target {
  name: TargetName
  /** e.g. `http://127.0.0.1:41234`, no trailing slash. */
  url: string
  pid: number
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>
  /** SIGKILL and wait for the exit (the durability check). */
  kill(): Promise<void>
}

export interface ServiceOptions {
  /** The built server package: its `start` script and `dist/server.js`. */
  serverDir: string
  dbPath: string
  logPath: string
  /** `LOG_LEVEL`; `info` is the production default. */
  logLevel?: string
  /** Node flags added to the start script's, e.g. `--cpu-prof`. */
  nodeArgs?: readonly string[]
  /** More variables, e.g. DATABASE_URL and REDIS_URL (the scale-out bench). */
  env?: Readonly<Record<string, string>>
  /** What runs Node: Node itself, or a script that runs it under a tool (instructions.ts). */
  launcher?: Launcher
}

/** A program started in Node's place with Node's arguments, and how long a start may take. */
export interface Launcher {
  execPath: string
  startWithinMs: number
}

const plainNode: Launcher = { execPath: process.execPath, startWithinMs: 20_000 }

/**
 * Variables that would point the service elsewhere than the bench's SQLite file, or turn on
 * what a workload did not ask for (traces, `OTEL_*`).
 */
const serviceVariables = /^(PORT|HOST|LOG_LEVEL|DATABASE_URL|REDIS_URL|PETSTORE_.*|OTEL_.*)$/

/** Starts the built service and resolves once `/healthz` answers. */
export async function startService(options: ServiceOptions): Promise<Target> {
  const port = await freePort()
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !serviceVariables.test(name)) env[name] = value
  }
  Object.assign(env, {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PETSTORE_DB: options.dbPath,
    LOG_LEVEL: options.logLevel ?? 'info',
    ...options.env,
  })
  const log = openSync(options.logPath, 'a')
  const start = startCommand(options.serverDir)
  const nodeArgs = [...start.nodeArgs, ...(options.nodeArgs ?? [])]
  const launcher = options.launcher ?? plainNode
  const child = spawn(launcher.execPath, [...nodeArgs, start.entry], {
    env,
    stdio: ['ignore', log, log],
  })
  const url = `http://127.0.0.1:${port}`
  try {
    await waitUntilHealthy(url, child, options.logPath, launcher.startWithinMs)
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
  return target('service', url, child)
}

const childEntry = fileURLToPath(new URL('./ceilings/child.js', import.meta.url))

/**
 * Forks a ceiling process and resolves once it listens; `nodeArgs` are added to this process's
 * own flags (e.g. the service's V8 settings, for a like-for-like diagnosis).
 */
export async function startCeiling(
  config: CeilingConfig,
  nodeArgs: readonly string[] = [],
  launcher: Launcher = plainNode,
): Promise<Target> {
  const child = fork(childEntry, [], {
    execPath: launcher.execPath,
    execArgv: [...process.execArgv, ...nodeArgs],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const ready = await new Promise<CeilingReady>((resolve, reject) => {
    child.once('message', (message) => resolve(message as CeilingReady))
    child.once('exit', (code) => reject(new Error(`${config.kind} ceiling exited with ${code}`)))
    child.send(config)
  })
  child.disconnect()
  return target(config.kind, `http://127.0.0.1:${ready.port}`, child)
}

function target(name: TargetName, url: string, child: ChildProcess): Target {
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve()
    else child.once('exit', () => resolve())
  })
  const signal = async (which: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(which)
    await exited
  }
  return {
    name,
    url,
    pid: child.pid as number,
    stop: () => signal('SIGTERM'),
    kill: () => signal('SIGKILL'),
  }
}

async function waitUntilHealthy(
  url: string,
  child: ChildProcess,
  logPath: string,
  withinMs: number,
): Promise<void> {
  const deadline = Date.now() + withinMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`the service exited with ${child.exitCode}:\n${tail(logPath)}`)
    }
    const healthy = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    )
    if (healthy) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`the service did not become healthy at ${url}:\n${tail(logPath)}`)
}

function tail(path: string): string {
  return readFileSync(path, 'utf8').split('\n').slice(-20).join('\n')
}
