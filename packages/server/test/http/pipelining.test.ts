/**
 * Pipelined requests from clients that never read cannot hold the server's memory: one answer
 * is in flight per connection (src/http/pipelining.ts) and a static file is one Buffer shared by
 * every answer (src/http/cached-files.ts). Measured on the built server as a child process, by
 * its resident memory (`VmRSS`), while twenty connections each pipeline fifty `GET /docs` of a
 * 16 MB page and read nothing, then after they leave. A client that reads gets every pipelined
 * answer, in order.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Child, requireBuiltServer, startChild } from '../child-server.js'
import { open } from './raw.js'

const pageBytes = 16 * 1024 * 1024
const connections = 20
const pipelined = 50
/**
 * How far above its start the server's memory may go. Twenty connections holding one copy of
 * the page each would be 320 MB, and every pipelined answer at once 16 GB; one shared page plus
 * the requests' objects and the heap's growth stay well below 64 MB (about 20 MB measured).
 */
const allowedGrowthBytes = 64 * 1024 * 1024

let dir: string
let child: Child
let metricsUrl: string

beforeAll(async () => {
  requireBuiltServer()
  dir = mkdtempSync(join(tmpdir(), 'petstore-pipelining-'))
  mkdirSync(join(dir, 'docs'))
  writeFileSync(join(dir, 'docs', 'index.html'), Buffer.alloc(pageBytes, 'docs '))
  child = await startChild({
    PETSTORE_DB: join(dir, 'petstore.db'),
    PETSTORE_DOCS_DIR: join(dir, 'docs'),
    PETSTORE_METRICS_PORT: '0',
  })
  metricsUrl = /metrics at (http:\/\/\S+\/metrics)/.exec(child.stdout())?.[1] ?? ''
})
afterAll(async () => {
  child?.process.kill('SIGKILL')
  await child?.exited
  rmSync(dir, { recursive: true, force: true })
})

function rssBytes(pid: number): number {
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
  if (kib === undefined) throw new Error(`no VmRSS for process ${pid}`)
  return Number(kib) * 1024
}

async function activeRequests(): Promise<number> {
  const text = await (await fetch(metricsUrl)).text()
  const value = /^http_server_active_requests (\d+)$/m.exec(text)?.[1]
  if (value === undefined) throw new Error('no http_server_active_requests in the scrape')
  return Number(value)
}

it('holds one answer per connection for clients that pipeline and never read', async () => {
  const pid = child.process.pid ?? 0
  const start = rssBytes(pid)
  let peak = start
  const { port } = new URL(child.url)
  const sockets: Socket[] = []
  try {
    // One address each (all of 127.0.0.0/8 is loopback), so that the per-IP limit of /docs
    // (60 a minute) is not what bounds them.
    for (let i = 0; i < connections; i++) {
      const socket = connect({
        port: Number(port),
        host: '127.0.0.1',
        localAddress: `127.0.0.${i + 2}`,
      })
      socket.on('error', () => {})
      socket.pause()
      socket.write('GET /docs HTTP/1.1\r\nHost: petstore\r\n\r\n'.repeat(pipelined))
      sockets.push(socket)
    }
    // Sampled until every request has reached the server (received, not answered: the gauge
    // counts them) and for three seconds more; stopped at once past the bound, rather than
    // filling the machine's memory.
    let received = 0
    let quietSamples = 0
    for (let sample = 0; sample < 200 && quietSamples < 30; sample++) {
      await sleep(100)
      peak = Math.max(peak, rssBytes(pid))
      if (peak - start > allowedGrowthBytes) break
      if (received < connections * pipelined) received = await activeRequests()
      else quietSamples++
    }
    expect(peak - start, `peak ${mb(peak)} from ${mb(start)}`).toBeLessThan(allowedGrowthBytes)
    expect(received).toBe(connections * pipelined)
    // The server did answer: the first answer waits in the connection.
    const first = sockets[0] as Socket
    const head = await new Promise<string>((resolve) => {
      first.once('data', (chunk: Buffer) => resolve(chunk.subarray(0, 15).toString('latin1')))
      first.resume()
    })
    expect(head).toBe('HTTP/1.1 200 OK')
  } finally {
    for (const socket of sockets) socket.destroy()
  }
  await sleep(5000)
  const after = rssBytes(pid)
  expect(after - start, `5 s later ${mb(after)} from ${mb(start)}`).toBeLessThan(allowedGrowthBytes)
  // No request is left counted once its connection is gone, answered or not.
  await expect.poll(activeRequests, { timeout: 5000 }).toBe(0)
}, 60_000)

it('answers every pipelined request of a client that reads, in order', async () => {
  const socket = await open(child.url)
  const paths = ['/healthz', '/docs/nope.txt', '/healthz', '/readyz']
  let text = ''
  const done = new Promise<void>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1')
      if ((text.match(/HTTP\/1\.1 /g) ?? []).length === paths.length && text.endsWith('}')) {
        resolve()
      }
    })
  })
  socket.write(paths.map((path) => `GET ${path} HTTP/1.1\r\nHost: petstore\r\n\r\n`).join(''))
  await done
  socket.destroy()
  expect([...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1])).toEqual([
    '200',
    '404',
    '200',
    '200',
  ])
})

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`
}
