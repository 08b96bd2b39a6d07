/**
 * The local service, run as `pnpm start` runs it (its start script's Node flags and file, read
 * from the server package; the loop keeps `dist/` current): same Node flags, same environment
 * (PORT, HOST, PETSTORE_*, DATABASE_URL, REDIS_URL and LOG_LEVEL pass through), its log on this
 * terminal. A restart stops the old process first: the SQLite file admits one server at a time.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { startCommand } from '../start-command.js'

export type Outcome = { ok: true; ms: number } | { ok: false; error: string; ms: number }

/** Where the service listens, from the variables the service reads (its defaults). */
export function serviceUrl(env: NodeJS.ProcessEnv): URL {
  const port = Number(env.PORT ?? 3000)
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(
      `pnpm dev needs a fixed PORT (1-65535) to restart the service on; got ${env.PORT}`,
    )
  }
  const host = env.HOST ?? '127.0.0.1'
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host
  return new URL(`http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`)
}

const answerTimeoutMs = 30_000
const stopTimeoutMs = 15_000

export class Service {
  #child: ChildProcess | undefined
  readonly #serverDir: string
  readonly #url: URL
  readonly #log: (line: string) => void

  constructor(serverDir: string, url: URL, log: (line: string) => void) {
    this.#serverDir = serverDir
    this.#url = url
    this.#log = log
  }

  get running(): boolean {
    return this.#child !== undefined
  }

  /** The spec the service answers with: proof that the process serving is a fresh one. */
  get specUrl(): URL {
    return new URL('/v1/openapi.json', this.#url)
  }

  /** Whether anything answers on the service's address (another server would shadow ours). */
  async answers(): Promise<boolean> {
    try {
      await fetch(this.specUrl, { signal: AbortSignal.timeout(1000) })
      return true
    } catch {
      return false
    }
  }

  /** Stops the running process, if any, then starts one and waits until it answers. */
  async restart(): Promise<Outcome> {
    const started = performance.now()
    await this.stop()
    const { nodeArgs, entry } = startCommand(this.#serverDir)
    const child = spawn(process.execPath, [...nodeArgs, entry], {
      cwd: this.#serverDir,
      env: process.env,
      stdio: ['ignore', 'inherit', 'inherit'],
    })
    this.#child = child
    let answered = false
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    void exited.then((code) => {
      if (this.#child !== child) return
      this.#child = undefined
      if (answered) this.#log(`service exited (code ${code}); the next edit starts it again`)
    })
    const error = await Promise.race([
      this.#firstAnswer(child),
      exited.then((code) => `the service exited with code ${code} before answering`),
    ])
    answered = error === undefined
    const ms = performance.now() - started
    if (answered) return { ok: true, ms }
    await this.stop()
    return { ok: false, error: error ?? '', ms }
  }

  async stop(): Promise<void> {
    const child = this.#child
    if (child === undefined) return
    this.#child = undefined
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs)
    await exited
    clearTimeout(timer)
  }

  /** Resolves when the spec URL answers 200, or with why it did not (the exit wins that race). */
  async #firstAnswer(child: ChildProcess): Promise<string | undefined> {
    const deadline = Date.now() + answerTimeoutMs
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) return 'exited'
      try {
        const response = await fetch(this.specUrl, { signal: AbortSignal.timeout(2000) })
        await response.arrayBuffer()
        if (response.ok) return undefined
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    return `the service did not answer ${this.specUrl} within ${answerTimeoutMs / 1000} s`
  }
}
