/**
 * Private backing services that a test may break without touching the shared ones other suites
 * and agents use: a redis-server of its own on a free port, and a TCP proxy in front of the
 * shared PostgreSQL that can cut every connection and refuse new ones (what a restart looks like
 * from the client side).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { createServer, type Server, Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { promisify } from 'node:util'
import { freePort } from '@petstore/scripts/free-port'

async function waitForPort(port: number, up: boolean): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = new Socket()
      socket.once('error', () => resolve(false))
      socket.connect(port, '127.0.0.1', () => {
        socket.destroy()
        resolve(true)
      })
    })
    if (open === up) return
    await sleep(50)
  }
  throw new Error(`port ${port} did not ${up ? 'open' : 'close'}`)
}

const run = promisify(execFile)

export interface PrivateRedis {
  url: string
  /** Kills the server (SIGKILL) and waits until its port is closed. */
  stop(): Promise<void>
  /** Starts it again on the same port. */
  start(): Promise<void>
  /** Stalls it (SIGSTOP): it keeps accepting connections and answers nothing. */
  pause(): void
  /** Lets a stalled server run again (SIGCONT). */
  resume(): void
  /** How many commands it has run for its clients' work (`INFO commandstats`, but PING and INFO). */
  commands(): Promise<number>
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort()
  let child: ChildProcess | undefined
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    )
    await waitForPort(port, true)
  }
  const stop = async () => {
    child?.kill('SIGKILL')
    child = undefined
    await waitForPort(port, false)
  }
  await start()
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    stop,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    commands: async () => {
      const { stdout } = await run('redis-cli', ['-p', String(port), 'INFO', 'commandstats'])
      let total = 0
      for (const [, name, calls] of stdout.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
        if (name !== 'ping' && name !== 'info') total += Number(calls)
      }
      return total
    },
  }
}

export interface CuttableProxy {
  /** The target's URL with host and port replaced by the proxy's. */
  url: string
  /** Drops every connection and refuses new ones until `restore`. */
  cut(): void
  restore(): void
  close(): Promise<void>
}

/** A TCP proxy to the host and port of `targetUrl`. */
export async function startProxy(targetUrl: string): Promise<CuttableProxy> {
  const target = new URL(targetUrl)
  const sockets = new Set<Socket>()
  let cut = false
  const server: Server = createServer((client) => {
    if (cut) {
      client.destroy()
      return
    }
    const upstream = new Socket()
    upstream.connect(Number(target.port), target.hostname)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      socket.on('error', () => {})
    }
    client.pipe(upstream)
    upstream.pipe(client)
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  const url = new URL(targetUrl)
  url.hostname = '127.0.0.1'
  url.port = String(port)
  return {
    url: url.toString(),
    cut() {
      cut = true
      for (const socket of sockets) socket.destroy()
    },
    restore() {
      cut = false
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
