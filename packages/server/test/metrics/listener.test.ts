/**
 * The metrics listener of the built server, beside what Prometheus reads (prometheus.test.ts):
 * it answers `/metrics` only, a port it cannot listen on stops the start with one line, and it
 * is bounded like the API port: the API's timeouts, a cap on its connections, which count
 * against `PETSTORE_MAX_CONNECTIONS`; its `http_server_active_requests` returns to 0 whatever
 * the clients did.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it, type TestContext } from 'vitest'
import { scrapeConnections } from '../../src/metrics/exposition.js'
import { specDocument } from '../../src/spec/document.js'
import { specBasePath, specOperations } from '../../src/spec/operations.js'
import { type Child, requireBuiltServer, startChild } from '../child-server.js'
import { call } from '../helpers.js'
import { open } from '../http/raw.js'

let dir: string
beforeAll(() => {
  requireBuiltServer()
  dir = mkdtempSync(join(tmpdir(), 'petstore-metrics-listener-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it('answers GET /metrics and nothing else', async () => {
  let child: Child | undefined
  try {
    child = await startChild({ PETSTORE_DB: join(dir, 'a.db'), PETSTORE_METRICS_PORT: '0' })
    const url = /metrics at (http:\/\/\S+\/metrics)/.exec(child.stdout())?.[1] ?? ''
    const scrape = await call(url)
    expect(scrape.status).toBe(200)
    expect(scrape.text).toContain('# TYPE http_server_request_duration_seconds histogram')
    expect((await call(url.replace('/metrics', '/v1/pets'))).status).toBe(404)
    const post = await call(url, { method: 'POST' })
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD'])
  } finally {
    child?.process.kill('SIGKILL')
    await child?.exited
  }
})

it('stops the start with one line when the metrics port is taken', async () => {
  const taken = createServer()
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
  const { port } = taken.address() as { port: number }
  try {
    const started = startChild({
      PETSTORE_DB: join(dir, 'b.db'),
      PETSTORE_METRICS_PORT: String(port),
    })
    await expect(started).rejects.toThrow(
      `petstore: cannot listen for metrics on 127.0.0.1:${port}: listen EADDRINUSE`,
    )
  } finally {
    taken.close()
  }
})

/** A server with metrics, killed when the test ends. */
async function withMetrics(
  test: TestContext,
  env: Record<string, string> = {},
): Promise<{ child: Child; metrics: string }> {
  const child = await startChild({
    PETSTORE_DB: join(mkdtempSync(join(dir, 'db-')), 'petstore.db'),
    PETSTORE_METRICS_PORT: '0',
    ...env,
  })
  test.onTestFinished(async () => {
    child.process.kill('SIGKILL')
    await child.exited
  })
  const metrics = /metrics at (http:\/\/\S+)\/metrics/.exec(child.stdout())?.[1] ?? ''
  return { child, metrics }
}

/** `count` connections to `url` that each send half a request head and then nothing. */
async function halfHeads(url: string, count: number): Promise<Socket[]> {
  const sockets = await Promise.all(Array.from({ length: count }, () => open(url)))
  for (const socket of sockets) {
    socket.on('error', () => {})
    socket.write('GET /metrics HTTP/1.1\r\nHost: x\r\n')
  }
  return sockets
}

function closing(socket: Socket): Promise<string> {
  let text = ''
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('latin1')
  })
  return new Promise((resolve) => socket.once('close', () => resolve(text)))
}

it("closes half-sent requests with a 408 within the API's request timeout", async (test) => {
  const { metrics } = await withMetrics(test, { PETSTORE_REQUEST_TIMEOUT_SECONDS: '1' })
  const started = Date.now()
  const sockets = await halfHeads(metrics, 5)
  const answers = await Promise.all(sockets.map(closing))
  for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 408 /)
  // 1 s, checked every 250 ms; generous for a loaded machine, far below Node's default 60 s.
  expect(Date.now() - started).toBeLessThan(15_000)
  expect((await call(`${metrics}/metrics`)).status).toBe(200)
})

it(`keeps at most ${scrapeConnections} connections, and closes more at once`, async (test) => {
  const { child, metrics } = await withMetrics(test)
  const held = await halfHeads(metrics, scrapeConnections)
  try {
    const extra = await open(metrics)
    expect(await closing(extra)).toBe('')
    await expect(call(`${metrics}/metrics`)).rejects.toThrow()
    // The API port is not starved by them.
    expect((await call(`${child.url}/healthz`)).status).toBe(200)
  } finally {
    for (const socket of held) socket.destroy()
  }
  await expect
    .poll(async () => (await call(`${metrics}/metrics`).catch(() => undefined))?.status)
    .toBe(200)
})

it('counts its connections against PETSTORE_MAX_CONNECTIONS, shared with the API port', async (test) => {
  const max = 6
  expect(max).toBeLessThan(scrapeConnections)
  const { child, metrics } = await withMetrics(test, {
    PETSTORE_MAX_CONNECTIONS: String(max),
    PETSTORE_KEEP_ALIVE_SECONDS: '600',
  })
  // Scrapes answered, so the server has taken each connection (a client's connect can come
  // before the server's accept), then kept open between scrapes.
  const held = await Promise.all(
    Array.from({ length: max }, async () => {
      const socket = await open(metrics)
      socket.on('error', () => {})
      const answered = new Promise((resolve) => socket.once('data', resolve))
      socket.write('GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n')
      await answered
      return socket
    }),
  )
  try {
    // Every connection of the process is taken: the API port closes a new one unanswered.
    await expect(call(`${child.url}/healthz`)).rejects.toThrow()
  } finally {
    for (const socket of held) socket.destroy()
  }
  await expect
    .poll(async () => (await call(`${child.url}/healthz`).catch(() => undefined))?.status)
    .toBe(200)
})

it('counts a request as active until it is answered or its connection is gone', async (test) => {
  const docs = join(dir, 'big-docs')
  mkdirSync(docs, { recursive: true })
  // Larger than the kernel's socket buffers: the first answer cannot be written to a client
  // that does not read, so the requests pipelined behind it wait.
  writeFileSync(join(docs, 'index.html'), Buffer.alloc(32 * 1024 * 1024, 'docs '))
  const { child, metrics } = await withMetrics(test, { PETSTORE_DOCS_DIR: docs })
  const active = async () =>
    Number(
      /^http_server_active_requests (\d+)$/m.exec((await call(`${metrics}/metrics`)).text)?.[1],
    )
  const socket = await open(child.url)
  socket.on('error', () => {})
  socket.pause()
  socket.write('GET /docs HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(3))
  await expect.poll(active).toBe(3)
  socket.destroy()
  await expect.poll(active).toBe(0)
})

it('labels a 405 with the route its path matched', async (test) => {
  const { child, metrics } = await withMetrics(test)
  // A spec path and a method none of its operations has, e.g. PUT /v1/pets.
  const standard = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']
  const [path, method] = specOperations
    .map((operation) => operation.path)
    .flatMap((specPath) =>
      standard
        .filter(
          (name) =>
            !specOperations.some(
              (operation) => operation.path === specPath && operation.method.toUpperCase() === name,
            ),
        )
        .map((name) => [specPath, name] as const),
    )[0] ?? ['', '']
  expect(method).not.toBe('')
  const concrete = `${specBasePath(specDocument)}${path.replace(/\{[^}]+\}/g, '1')}`
  const refusals = [
    [method, concrete, `${specBasePath(specDocument)}${path}`],
    ['POST', '/healthz', '/healthz'],
  ] as const
  for (const [name, url] of refusals) {
    const reply = await call(`${child.url}${url}`, { method: name })
    expect(reply.status, `${name} ${url}`).toBe(405)
  }
  const text = (await call(`${metrics}/metrics`)).text
  for (const [name, , route] of refusals) {
    expect(text).toContain(
      `http_server_request_duration_seconds_count{http_request_method="${name}",http_route="${route}",http_response_status_code="405"} 1`,
    )
  }
  expect(text).not.toMatch(/http_route="",http_response_status_code="405"/)
})
