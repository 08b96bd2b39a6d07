/** Child processes of the dev loop: Node scripts run with their output captured. */
import { spawn } from 'node:child_process'

/** Loads `.ts` files in a child Node, as the `tsx` command does, without its extra process. */
export const tsxLoader: string = import.meta.resolve('tsx')

export interface RunResult {
  /** Exit code; `null` when killed (aborted). */
  code: number | null
  /** stdout and stderr, interleaved as written. */
  output: string
  ms: number
}

/** Runs `node …args`; aborting `signal` kills it. Never rejects. */
export function runNode(
  args: readonly string[],
  options: { cwd: string; signal?: AbortSignal },
): Promise<RunResult> {
  const started = performance.now()
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.on('error', (error) => {
      if (error.name !== 'AbortError') output += `${error.message}\n`
    })
    child.on('close', (code) => resolve({ code, output, ms: performance.now() - started }))
  })
}
