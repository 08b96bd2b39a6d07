/**
 * Child processes for the release test. Everything is asynchronous: the registry and the service
 * run as children of this process, and a synchronous spawn would stall the test's own timers.
 */
import { type ChildProcess, type ChildProcessByStdio, spawn } from 'node:child_process'
import type { Readable } from 'node:stream'
import { withoutServiceVariables } from '../../src/service-env.js'

/**
 * The environment for npm, pnpm, Changesets and service children: this process's, less the
 * `npm_config_*` (and `npm_package_*`, `npm_lifecycle_*`) variables that `pnpm test` sets, so each
 * child reads its registry and token from the `.npmrc` files of the directory it runs in, as a
 * person's would, and less the service's own (`withoutServiceVariables`): `extra` names those.
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(withoutServiceVariables(process.env))) {
    if (/^npm_(config|package|lifecycle)_/i.test(name)) continue
    env[name] = value
  }
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0', ...extra }
}

export interface RunResult {
  code: number
  /** stdout and stderr, interleaved as they arrived. */
  output: string
  stdout: string
}

/** Runs a command to its end; never throws for a non-zero exit (see `mustRun`). */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<RunResult> {
  return outcome(
    spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  )
}

/** What a child spawned with piped stdout and stderr printed and how it ended, once it has. */
export function outcome(child: ChildProcessByStdio<null, Readable, Readable>): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    let output = ''
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk
      output += chunk
    })
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk
    })
    child.on('error', reject)
    child.on('close', (code, signal) =>
      resolve({ code: code ?? (signal ? 128 : 1), output, stdout }),
    )
  })
}

/** Runs a command and throws, with its whole output, unless it exits 0. */
export async function mustRun(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<RunResult> {
  const result = await run(command, args, options)
  if (result.code !== 0) {
    throw new Error(
      `\`${command} ${args.join(' ')}\` in ${options.cwd} exited ${result.code}:\n${result.output}`,
    )
  }
  return result
}

/** A long-running child in its own process group, so stopping it stops what it started too. */
export interface Daemon {
  child: ChildProcess
  /** What it printed so far, for failure messages. */
  output(): string
  stop(): Promise<void>
}

export function startDaemon(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Daemon {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  // Should the test process itself be ended early, the group must not outlive it.
  const killOnExit = () => {
    if (child.pid !== undefined) signalGroup(-child.pid, 'SIGKILL')
  }
  process.once('exit', killOnExit)
  return {
    child,
    output: () => output,
    async stop() {
      process.off('exit', killOnExit)
      if (child.pid === undefined) return
      // The whole group: npx leaves the service as a grandchild, which SIGTERM lets drain.
      const group = -child.pid
      signalGroup(group, 'SIGTERM')
      const deadline = Date.now() + 10_000
      while (groupAlive(group) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      signalGroup(group, 'SIGKILL')
      if (child.exitCode === null && child.signalCode === null) await exited
    },
  }
}

function groupAlive(group: number): boolean {
  try {
    process.kill(group, 0)
    return true
  } catch {
    return false
  }
}

function signalGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(group, signal)
  } catch {
    // The group has already exited.
  }
}

/** Polls `url` until it answers at all (any status), or fails after `timeoutMs`. */
export async function waitForHttp(url: string, daemon: Daemon, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (daemon.child.exitCode !== null) {
      throw new Error(
        `exited ${daemon.child.exitCode} before answering ${url}:\n${daemon.output()}`,
      )
    }
    try {
      await fetch(url, { signal: AbortSignal.timeout(2_000) })
      return
    } catch {
      if (Date.now() > deadline) {
        throw new Error(`no answer from ${url} in ${timeoutMs} ms:\n${daemon.output()}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
}
