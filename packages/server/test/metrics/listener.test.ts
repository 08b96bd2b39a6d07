/**
 * The metrics listener of the built server, beside what Prometheus reads (prometheus.test.ts):
 * it answers `/metrics` only, and a port it cannot listen on stops the start with one line.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Child, requireBuiltServer, startChild } from '../child-server.js'
import { call } from '../helpers.js'

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
