import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { NewPet, Pet } from '@petstore/types'
import { afterAll, beforeAll } from 'vitest'
import type { Clock } from '../src/clock.js'

/** A request as a scripted server saw it. */
export interface SeenRequest {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}

/** What a scripted server does with one request. */
export type Step =
  | { status: number; headers?: Record<string, string>; body?: unknown }
  | 'drop'
  | 'hang'

export interface TestServer {
  url: string
  requests: SeenRequest[]
  close(): Promise<void>
}

async function listen(
  handler: (req: IncomingMessage, body: string, res: ServerResponse) => void,
): Promise<TestServer & { server: Server }> {
  const requests: SeenRequest[] = []
  const sockets = new Set<Socket>()
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
      handler(req, body, res)
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      server.close()
      await once(server, 'close')
    },
  }
}

function send(res: ServerResponse, step: Exclude<Step, 'drop' | 'hang'>): void {
  const json = step.body === undefined ? '' : JSON.stringify(step.body)
  res.writeHead(step.status, {
    ...(json ? { 'Content-Type': 'application/json' } : {}),
    ...step.headers,
  })
  res.end(json)
}

/**
 * A real HTTP server on an ephemeral port that answers requests with `steps` in order (the last
 * step repeats): a response, `drop` (destroy the socket without answering) or `hang`.
 */
export async function scriptedServer(steps: Step[]): Promise<TestServer> {
  let index = 0
  return listen((req, _body, res) => {
    const step = steps[Math.min(index, steps.length - 1)] ?? { status: 500 }
    index += 1
    if (step === 'drop') req.socket.destroy()
    else if (step !== 'hang') send(res, step)
  })
}

/**
 * A valid NewPet (a pet named Rex) with `overrides`. Typed by the spec, so that renaming or
 * retyping a property in the spec is a compile error in the tests that use it.
 */
export function newPet(overrides: Partial<NewPet> = {}): NewPet {
  return { name: 'Rex', categoryId: 1, ...overrides }
}

/** A stored Pet, as a scripted server answers it. */
export function storedPet(overrides: Partial<Pet> = {}): Pet {
  return { id: 1, status: 'available', ...newPet(), ...overrides }
}

/** An Error body as the service sends it. */
export function apiError(status: number, code: string, headers: Record<string, string> = {}): Step {
  return { status, headers, body: { code, message: `scripted ${code}`, status } }
}

/**
 * A server enforcing `quota` requests per fixed window of `windowSeconds` on `clock`'s time, with
 * the service's rate-limit headers; over the limit it answers 429 with `Retry-After`.
 */
export async function windowServer(
  clock: Clock,
  quota: number,
  windowSeconds: number,
): Promise<TestServer & { limited: () => number }> {
  let windowEnd = 0
  let used = 0
  let limited = 0
  const server = await listen((_req, _body, res) => {
    const now = clock.now()
    if (now >= windowEnd) {
      windowEnd = now + windowSeconds * 1000
      used = 0
    }
    used += 1
    const remaining = Math.max(0, quota - used)
    const seconds = Math.ceil((windowEnd - now) / 1000)
    const headers = {
      'RateLimit-Policy': `"minute";q=${quota};w=${windowSeconds}`,
      RateLimit: `"minute";r=${remaining};t=${seconds}`,
      'X-RateLimit-Limit': String(quota),
      'X-RateLimit-Remaining': String(remaining),
      'X-RateLimit-Reset': String(Math.ceil(windowEnd / 1000)),
    }
    if (used > quota) {
      limited += 1
      send(res, {
        status: 429,
        headers: { ...headers, 'Retry-After': String(seconds) },
        body: { code: 'rate_limited', message: 'over the limit', status: 429 },
      })
    } else {
      send(res, { status: 200, headers, body: [] })
    }
  })
  return { ...server, limited: () => limited }
}

/** Headers that describe one connection's framing, not the message (fetch has decoded it). */
const hopHeaders = new Set([
  'connection',
  'content-length',
  'content-encoding',
  'transfer-encoding',
])

/**
 * A proxy in front of `target` that forwards each request and, for the first `drops` of them,
 * destroys the client's connection instead of relaying the answer: the request took effect but
 * the client saw a network error.
 */
export async function droppingProxy(target: string, drops: number): Promise<TestServer> {
  let dropped = 0
  return listen((req, body, res) => {
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && name !== 'host' && name !== 'connection')
        headers.set(name, value)
    }
    fetch(`${target}${req.url}`, {
      method: req.method ?? 'GET',
      headers,
      ...(body ? { body } : {}),
    }).then(
      async (upstream) => {
        const text = await upstream.text()
        if (dropped < drops) {
          dropped += 1
          req.socket.destroy()
          return
        }
        const relayed = Object.fromEntries(
          [...upstream.headers].filter(([name]) => !hopHeaders.has(name)),
        )
        res.writeHead(upstream.status, relayed)
        res.end(text)
      },
      () => req.socket.destroy(),
    )
  })
}

/**
 * A clock whose `sleep` records the wait and returns at once, advancing `now` by it: retries and
 * pacing run without real waiting, and their waits can be checked exactly.
 */
export function recordingClock(start = Date.now()): Clock & { waits: number[] } {
  let now = start
  const waits: number[] = []
  return {
    waits,
    now: () => now,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted()
      waits.push(ms)
      now += ms
    },
  }
}

/** A clock whose `sleep` never returns by itself: only an abort ends it. */
export function stalledClock(): Clock & { sleeping: Promise<void> } {
  let started: () => void = () => {}
  const sleeping = new Promise<void>((resolve) => {
    started = resolve
  })
  return {
    sleeping,
    now: () => Date.now(),
    sleep: (_ms, signal) =>
      new Promise((_resolve, reject) => {
        started()
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true })
      }),
  }
}

/** A clock that only moves when told: `sleep` resolves once `advance` has passed its deadline. */
export function manualClock(start = Date.now()): Clock & {
  pending: () => number
  advance: (ms: number) => void
} {
  let now = start
  let sleepers: Array<{ until: number; resolve: () => void }> = []
  return {
    now: () => now,
    pending: () => sleepers.length,
    advance: (ms) => {
      now += ms
      const due = sleepers.filter((sleeper) => sleeper.until <= now)
      sleepers = sleepers.filter((sleeper) => sleeper.until > now)
      for (const sleeper of due) sleeper.resolve()
    },
    sleep: (ms, signal) =>
      new Promise((resolve, reject) => {
        signal?.throwIfAborted()
        sleepers.push({ until: now + ms, resolve })
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true })
      }),
  }
}

/**
 * The real service for the tests of one file: started before them with an enterprise key whose
 * limits no test reaches, closed after them. Read `url` (no `/v1`) and `apiKey` inside tests;
 * `issueKey()` gives another such key (what a key owns, its orders, starts empty).
 */
export function realPetstore(): {
  readonly url: string
  readonly apiKey: string
  issueKey(): Promise<string>
} {
  let issue: (() => Promise<string>) | undefined
  const state = {
    url: '',
    apiKey: '',
    issueKey: () => issue?.() ?? Promise.reject(new Error('the petstore is not started yet')),
  }
  let close: (() => Promise<void>) | undefined
  beforeAll(async () => {
    const { startPetstore } = await import('@petstore/server')
    const petstore = await startPetstore()
    close = () => petstore.close()
    issue = () => petstore.issueKey({ plan: 'enterprise', perMinute: 100_000, perDay: 1_000_000 })
    state.url = petstore.url
    state.apiKey = await issue()
  })
  afterAll(async () => {
    await close?.()
  })
  return state
}
