/**
 * The caller's OpenTelemetry context reaches the service: `@opentelemetry/api` with a context
 * manager registered (no SDK needed), a call made inside `context.with(...)` carries the
 * caller's trace to the built server, run as an operator runs it with traces configured, whose
 * completion log line names that trace.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as api from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import createClient from 'openapi-fetch'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPetstoreClient, traceContext } from '../../src/index.js'
import { recordingClock, scriptedServer, type TestServer } from '../helpers.js'

const { context, trace, TraceFlags } = api
const contextManager = new AsyncLocalStorageContextManager()

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable())
})

afterAll(() => {
  context.disable()
})

/** A caller's span context: what its `traceparent` must carry. */
function callerSpan(flags = TraceFlags.SAMPLED) {
  return {
    traceId: randomBytes(16).toString('hex'),
    spanId: randomBytes(8).toString('hex'),
    traceFlags: flags,
    isRemote: false,
  }
}

const inSpan = <T>(span: api.SpanContext, call: () => Promise<T>) =>
  context.with(trace.setSpanContext(context.active(), span), call)

/** The built server as a child process, with traces configured (OTLP, sampling off). */
async function startTracedServer(): Promise<{
  url: string
  apiKey: string
  logs: () => string
  stop: () => Promise<void>
}> {
  const serverDir = dirname(createRequire(import.meta.url).resolve('@petstore/server/package.json'))
  const dir = mkdtempSync(join(tmpdir(), 'petstore-client-traces-'))
  const env = {
    PATH: process.env.PATH ?? '',
    PETSTORE_DB: join(dir, 'petstore.db'),
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info',
    // Configured but unsampled: the log line names the trace, nothing is exported.
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_TRACES_SAMPLER: 'always_off',
  }
  const apiKey = execFileSync(
    process.execPath,
    [
      join(serverDir, 'dist', 'cli', 'main.js'),
      'keys',
      'create',
      '--plan',
      'enterprise',
      '--per-minute',
      '100000',
      '--per-day',
      '1000000',
    ],
    { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  ).trim()
  const child: ChildProcess = spawn(process.execPath, [join(serverDir, 'dist', 'server.js')], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let out = ''
  child.stdout?.on('data', (chunk) => {
    out += chunk
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = await new Promise<string>((resolve, reject) => {
    const poll = setInterval(() => {
      const found = /listening on (http:\/\/[^/\s]+)\/v1/.exec(out)?.[1]
      if (found !== undefined) {
        clearInterval(poll)
        resolve(found)
      }
    }, 20)
    void exited.then(() => {
      clearInterval(poll)
      reject(new Error(`server exited: ${out}`))
    })
  })
  return {
    url,
    apiKey,
    logs: () => out,
    async stop() {
      child.kill('SIGTERM')
      await exited
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

describe('createPetstoreClient against the built server with traces configured', () => {
  let server: Awaited<ReturnType<typeof startTracedServer>>

  beforeAll(async () => {
    server = await startTracedServer()
  })

  afterAll(async () => {
    await server?.stop()
  })

  it("carries the caller's trace id to the server's log line", async () => {
    const client = createPetstoreClient({
      baseUrl: `${server.url}/v1`,
      apiKey: server.apiKey,
      clock: recordingClock(),
    })
    const span = callerSpan()
    const { response } = await inSpan(span, () =>
      client.GET('/pets', { params: { query: { limit: 1 } } }),
    )
    expect(response.status).toBe(200)
    const requestId = response.headers.get('x-request-id') ?? ''
    const line = await new Promise<Record<string, unknown>>((resolve) => {
      const poll = setInterval(() => {
        const found = server
          .logs()
          .split('\n')
          .find((candidate) => candidate.includes(`"requestId":"${requestId}"`))
        if (found !== undefined) {
          clearInterval(poll)
          resolve(JSON.parse(found) as Record<string, unknown>)
        }
      }, 50)
    })
    expect(line.trace_id).toBe(span.traceId)
    // The server's own span, a child of the caller's.
    expect(line.span_id).toMatch(/^[0-9a-f]{16}$/)
    expect(line.span_id).not.toBe(span.spanId)
  })
})

describe('traceContext', () => {
  let scripted: TestServer

  beforeAll(async () => {
    scripted = await scriptedServer(Array.from({ length: 10 }, () => ({ status: 200, body: [] })))
  })

  afterAll(async () => {
    await scripted?.close()
  })

  const lastHeaders = () => scripted.requests.at(-1)?.headers ?? {}
  const petstore = (options: Parameters<typeof createPetstoreClient>[0]['traceContext']) =>
    createPetstoreClient({
      baseUrl: scripted.url,
      apiKey: 'key',
      clock: recordingClock(),
      retry: false,
      ...(options === undefined ? {} : { traceContext: options }),
    })

  it('sends traceparent and tracestate inside a span, by default', async () => {
    const span = {
      ...callerSpan(TraceFlags.NONE),
      traceState: api.createTraceState('vendor=a,other=b'),
    }
    await inSpan(span, () => petstore(undefined).GET('/pets'))
    expect(lastHeaders()).toMatchObject({
      traceparent: `00-${span.traceId}-${span.spanId}-00`,
      tracestate: 'vendor=a,other=b',
    })
  })

  it('sends nothing outside a span', async () => {
    await petstore(undefined).GET('/pets')
    expect(lastHeaders()).not.toHaveProperty('traceparent')
    expect(lastHeaders()).not.toHaveProperty('tracestate')
  })

  it('sends nothing when turned off', async () => {
    await inSpan(callerSpan(), () => petstore(false).GET('/pets'))
    expect(lastHeaders()).not.toHaveProperty('traceparent')
  })

  it('keeps a traceparent the call sets itself', async () => {
    const own = `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`
    await inSpan(callerSpan(), () =>
      petstore(undefined).GET('/pets', { headers: { traceparent: own } }),
    )
    expect(lastHeaders().traceparent).toBe(own)
  })

  it('works on a plain openapi-fetch client with the API handed over', async () => {
    const client = createClient<Record<string, never>>({ baseUrl: scripted.url })
    client.use(traceContext({ api }))
    const span = callerSpan()
    await inSpan(span, () => client.GET('/pets' as never))
    expect(lastHeaders().traceparent).toBe(`00-${span.traceId}-${span.spanId}-01`)
  })
})

describe('an application without @opentelemetry/api', () => {
  // The built package installed alone, with its dependencies and not the optional peer.
  it('loads nothing of OpenTelemetry and sends requests unchanged', () => {
    const packageDir = fileURLToPath(new URL('../..', import.meta.url))
    const app = mkdtempSync(join(tmpdir(), 'petstore-client-no-otel-'))
    try {
      const modules = join(app, 'node_modules')
      const installed = join(modules, '@petstore', 'client')
      mkdirSync(installed, { recursive: true })
      cpSync(join(packageDir, 'dist'), join(installed, 'dist'), { recursive: true })
      cpSync(join(packageDir, 'package.json'), join(installed, 'package.json'))
      for (const name of ['openapi-fetch', '@petstore/types']) {
        mkdirSync(dirname(join(modules, name)), { recursive: true })
        symlinkSync(realpathSync(join(packageDir, 'node_modules', name)), join(modules, name))
      }
      writeFileSync(
        join(app, 'main.mjs'),
        `import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import { createPetstoreClient } from '@petstore/client'
const seen = []
const server = createServer((request, response) => {
  seen.push(request.headers)
  response.writeHead(200, { 'content-type': 'application/json' }).end('[]')
})
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const client = createPetstoreClient({ baseUrl: 'http://127.0.0.1:' + server.address().port, apiKey: 'key', retry: false })
const { response } = await client.GET('/pets')
server.close()
const peer = await import('@opentelemetry/api').then(() => true, () => false)
const loaded = Object.keys(createRequire(import.meta.url).cache).filter((path) => path.includes('opentelemetry'))
console.log(JSON.stringify({ status: response.status, headers: seen[0], peer, loaded }))
`,
      )
      const out = execFileSync(process.execPath, [join(app, 'main.mjs')], {
        cwd: app,
        encoding: 'utf8',
      })
      const result = JSON.parse(out) as {
        status: number
        headers: Record<string, string>
        peer: boolean
        loaded: string[]
      }
      expect(result.peer, 'the application cannot import the peer').toBe(false)
      expect(result.status).toBe(200)
      expect(result.headers).not.toHaveProperty('traceparent')
      expect(result.headers).not.toHaveProperty('tracestate')
      expect(result.loaded).toEqual([])
    } finally {
      rmSync(app, { recursive: true, force: true })
    }
  })
})
