/**
 * One address cannot take every connection: past PETSTORE_MAX_CONNECTIONS_PER_ADDRESS its new
 * connections are closed, while a client from another address is served; trusted proxies, whose
 * connections carry many clients, are not capped. Clients come from several loopback addresses
 * (all of 127/8 reaches the server on Linux).
 */
import { request } from 'node:http'
import { connect, type Socket } from 'node:net'
import { expect, it } from 'vitest'
import { serveForTest } from '../helpers.js'

/** Opens an idle connection (it sends nothing) to `url` from `localAddress`. */
function idle(url: string, localAddress: string): Promise<Socket> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), localAddress }, () =>
      resolve(socket),
    )
    socket.once('error', reject)
  })
}

/** GET /healthz from `localAddress`: its status, or `closed` when the server closed it unanswered. */
function healthz(url: string, localAddress: string): Promise<number | 'closed'> {
  return new Promise((resolve) => {
    const req = request(`${url}/healthz`, { localAddress, agent: false }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.once('error', () => resolve('closed'))
    req.end()
  })
}

async function hold(url: string, localAddress: string, count: number): Promise<Socket[]> {
  const sockets: Socket[] = []
  for (let i = 0; i < count; i++) sockets.push(await idle(url, localAddress))
  return sockets
}

it('closes the connections of one address past its cap and serves the others', async (test) => {
  const server = await serveForTest(test, { maxConnectionsPerAddress: 10 })
  const held = await hold(server.url, '127.0.0.2', 10)
  test.onTestFinished(() => {
    for (const socket of held) socket.destroy()
  })
  expect(await healthz(server.url, '127.0.0.2')).toBe('closed')
  expect(await healthz(server.url, '127.0.0.3')).toBe(200)
  // A connection given back frees a place for its address.
  const closed = new Promise((resolve) => held[0]?.once('close', resolve))
  held[0]?.destroy()
  await closed
  let status: number | 'closed' = 'closed'
  for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
    status = await healthz(server.url, '127.0.0.2')
  }
  expect(status).toBe(200)
})

it('does not cap a trusted proxy, whose connections carry many clients', async (test) => {
  const server = await serveForTest(test, {
    maxConnectionsPerAddress: 5,
    trustProxy: ['127.0.0.4', '127.0.1.0/24'],
  })
  const held = [
    ...(await hold(server.url, '127.0.0.4', 8)),
    ...(await hold(server.url, '127.0.1.9', 8)),
    ...(await hold(server.url, '127.0.0.5', 5)),
  ]
  test.onTestFinished(() => {
    for (const socket of held) socket.destroy()
  })
  expect(await healthz(server.url, '127.0.0.4')).toBe(200)
  expect(await healthz(server.url, '127.0.1.9')).toBe(200)
  expect(await healthz(server.url, '127.0.0.5')).toBe('closed')
})
