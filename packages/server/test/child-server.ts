/**
 * The built server as an operator runs it (`node dist/server.js` or `petstore serve`, configured
 * by env), as a child process of the test: what test/server.test.ts, test/cli/serve.test.ts and
 * the multi-instance suites start.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..')
export const serverJs = join(packageRoot, 'dist', 'server.js')
/** The package's `petstore` bin, as npm links it. */
export const binJs = join(packageRoot, 'bin', 'petstore.js')

export function requireBuiltServer(): void {
  if (!existsSync(serverJs))
    throw new Error('dist/server.js is missing: run pnpm --filter @petstore/server build')
}

export interface Child {
  process: ChildProcess
  url: string
  stdout: () => string
  stderr: () => string
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Resolves when a stdout line contains `text`. */
  waitFor(text: string): Promise<void>
}

/**
 * Spawns the server on a free port and resolves once it listens; rejects if it exits first.
 * `fileSizeLimit`: the most 512-byte blocks a file may grow to (`ulimit -f`): a full disk.
 */
export async function startChild(
  env: Record<string, string>,
  fileSizeLimit?: number,
): Promise<Child> {
  const [command, args] =
    fileSizeLimit === undefined
      ? [process.execPath, [serverJs]]
      : ['sh', ['-c', `ulimit -f ${fileSizeLimit}; exec "$0" "$1"`, process.execPath, serverJs]]
  return startListening(command, args, env)
}

/** `petstore <args>` (the bin), resolving once it listens, as `startChild` does. */
export function startBin(args: readonly string[], env: Record<string, string>): Promise<Child> {
  return startListening(process.execPath, [binJs, ...args], env)
}

async function startListening(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<Child> {
  const child = spawn(command, args, {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      // An answer without a header the spec requires fails the test that gets it.
      PETSTORE_RESPONSE_CHECK: 'fail',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  const waiters: { text: string; resolve: () => void }[] = []
  child.stderr?.on('data', (chunk) => {
    err += chunk
  })
  child.stdout?.on('data', (chunk) => {
    out += chunk
    for (const waiter of [...waiters]) {
      if (out.includes(waiter.text)) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve()
      }
    }
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  )
  const waitFor = (text: string) =>
    out.includes(text)
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiters.push({ text, resolve }))
  await Promise.race([
    waitFor('listening on'),
    exited.then(() => Promise.reject(new Error(`server exited: ${out}${err}`))),
  ])
  const url = /listening on (http:\/\/[^/\s]+)\/v1/.exec(out)?.[1] ?? ''
  return { process: child, url, stdout: () => out, stderr: () => err, exited, waitFor }
}
