/**
 * Every variable this package's README documents reaches the server started the README's way,
 * `pnpm start` (pnpm, then Turbo, whose strict environment mode passes a task only what
 * turbo.json declares, then the package's start script). The names come from the README's two
 * tables, the configuration (generated from `configTable`) and the tracing one; a name Turbo
 * drops fails here, naming it.
 *
 * Two starts, whatever the number of variables: one with every documented variable set at once
 * (the server's own environment is read from /proc, and the settings a test can see act: the
 * port, the database file, and a span exported to a real OTLP receiver with the service name,
 * resource attributes, headers, protocol and sampler given), and one refused by a bogus
 * `OTEL_TRACES_EXPORTER` with its one line.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  documentedVariables,
  missingVariables,
  nodeProcessesRunning,
  processEnvironment,
} from '@petstore/scripts/documented-env'
import { freePort } from '@petstore/scripts/free-port'
import { withoutServiceVariables } from '@petstore/scripts/service-env'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configTable } from '../src/config.js'
import { type OtlpReceiver, startOtlpReceiver } from './tracing/otlp-receiver.js'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
const documented = documentedVariables(readme)

/** The start script's file, as the server process's command line names it. */
const entry = 'dist/server.js'

interface Started {
  child: ChildProcess
  output: () => string
  exited: Promise<number | null>
}

/**
 * `pnpm start`, as a user runs it, from the repository root. `--only` (a Turbo flag) skips the
 * build tasks `pnpm start` depends on: the test run has built them, and rebuilding the docs here
 * would rewrite files that other suites are reading at the same time.
 */
function pnpmStart(env: NodeJS.ProcessEnv): Started {
  const child = spawn('pnpm', ['start', '--only'], {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  return { child, output: () => output, exited }
}

/** The launcher's process group: pnpm and Turbo, which passes a signal on to the server. */
function stopGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal)
  } catch {
    // Already gone.
  }
}

async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  started: Started,
): Promise<T> {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    const value = await probe()
    if (value !== undefined) return value
    if (started.child.exitCode !== null) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${what}; pnpm start printed:\n${started.output()}`)
}

/** The status of a GET of `url` in trace `traceId`, unsampled by its caller; undefined while nothing listens. */
async function answer(url: string, traceId: string): Promise<number | undefined> {
  try {
    const response = await fetch(url, {
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-00` },
    })
    await response.arrayBuffer()
    return response.status
  } catch {
    return undefined
  }
}

/** The environment of a clean shell (no service variable inherited), plus `variables`. */
function shellWith(variables: Record<string, string>): NodeJS.ProcessEnv {
  return withoutServiceVariables(process.env, variables)
}

it('reads both of the README tables', () => {
  expect(documented).toEqual(
    expect.arrayContaining([
      ...Object.values(configTable).map((row) => row.variable),
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      'OTEL_TRACES_EXPORTER',
      'OTEL_SDK_DISABLED',
    ]),
  )
})

describe.runIf(process.platform === 'linux')('pnpm start', () => {
  let receiver: OtlpReceiver
  let dir: string
  let started: Started | undefined
  const servers: number[] = []

  beforeAll(async () => {
    receiver = await startOtlpReceiver()
    dir = mkdtempSync(join(tmpdir(), 'petstore-start-env-'))
  })

  afterAll(async () => {
    // Turbo runs the task in a process group of its own: a server left by a failed test is
    // killed by its pid.
    for (const pid of servers) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // Already gone.
      }
    }
    if (started) stopGroup(started.child, 'SIGKILL')
    await receiver?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('passes every documented variable to the server, and the server acts on them', async () => {
    const port = await freePort()
    const dbPath = join(dir, 'petstore.db')
    const observed: Record<string, string> = {
      PORT: String(port),
      HOST: '127.0.0.1',
      PETSTORE_DB: dbPath,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-start-env=reached',
      OTEL_SERVICE_NAME: 'petstore-start-env',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=start-env-test',
      // Samples the request below although its caller did not sample it (the default follows
      // the caller): proof the sampler setting arrived.
      OTEL_TRACES_SAMPLER: 'always_on',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    }
    // The rest are set blank: the server and the OpenTelemetry SDK read a blank value as unset,
    // so the server runs on its defaults, while its environment must still hold each name.
    const variables = {
      ...Object.fromEntries(documented.map((name) => [name, ' '])),
      ...observed,
    }
    expect(Object.keys(observed).filter((name) => !documented.includes(name))).toEqual([])

    started = pnpmStart(shellWith(variables))
    const current = started
    const [server] = await until(
      'no server process appeared',
      () => {
        const found = nodeProcessesRunning(current.child.pid as number, entry)
        return found.length > 0 ? found : undefined
      },
      current,
    )
    servers.push(server as number)
    expect(missingVariables(processEnvironment(server as number), variables)).toEqual([])

    // A request its caller chose not to sample (trace flags 00).
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736'
    const answered = await until(
      'the server never answered on PORT',
      () => answer(`http://127.0.0.1:${port}/v1/openapi.json`, traceId),
      current,
    )
    expect(answered).toBe(200)
    expect(existsSync(dbPath)).toBe(true)

    const [span] = await receiver.waitForTrace(traceId, 1, 20_000)
    expect(span?.resource).toMatchObject({
      'service.name': 'petstore-start-env',
      'deployment.environment.name': 'start-env-test',
    })
    expect(span?.contentType).toMatch(/^application\/json/)
    expect(receiver.requestHeaders.map((headers) => headers['x-start-env'])).toContain('reached')

    stopGroup(current.child, 'SIGTERM')
    await current.exited
  }, 120_000)

  it('refuses a bogus OTEL_TRACES_EXPORTER with one line', async () => {
    const refused = pnpmStart(
      shellWith({ PORT: '0', PETSTORE_DB: join(dir, 'refused.db'), OTEL_TRACES_EXPORTER: 'bogus' }),
    )
    started = refused
    const ended = await Promise.race([
      refused.exited,
      new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 60_000)),
    ])
    expect(ended, refused.output()).toEqual(expect.any(Number))
    expect(ended).not.toBe(0)
    // Turbo prefixes each line of the task with `@petstore/server:start: `.
    const said = refused
      .output()
      .split('\n')
      .map((line) => line.replace(/^@petstore\/server:start: /, ''))
      .filter((line) => line.startsWith('petstore: '))
    expect(said).toEqual([
      'petstore: OTEL_TRACES_EXPORTER must be otlp or none (this server exports over OTLP/HTTP); got bogus',
    ])
    expect(existsSync(join(dir, 'refused.db'))).toBe(false)
  }, 120_000)
})
