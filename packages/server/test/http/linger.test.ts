/**
 * Lingering close: after the answer, what the client still sends is read and dropped, within a
 * time and a byte limit; closing the app ends it at once.
 */
import { once } from 'node:events'
import type { AddressInfo, Socket } from 'node:net'
import Fastify from 'fastify'
import { expect, it, type TestContext } from 'vitest'
import { type LingerLimits, registerLingering } from '../../src/http/linger.js'
import { open } from './raw.js'

/**
 * A server whose connection is answered `hi` and closed lingering, and a client of it;
 * `closed` settles when the server has destroyed its side.
 */
async function lingeringServer(test: TestContext, limits: LingerLimits) {
  const app = Fastify()
  const lingering = registerLingering(app, limits)
  await app.listen({ host: '127.0.0.1', port: 0 })
  app.server.removeAllListeners('connection')
  const accepted = new Promise<Socket>((resolve) => {
    app.server.once('connection', (socket: Socket) => {
      socket.write('hi')
      lingering.close(socket)
      resolve(socket)
    })
  })
  test.onTestFinished(() => app.close())
  const { port } = app.server.address() as AddressInfo
  const client = await open(`http://127.0.0.1:${port}`, { allowHalfOpen: true })
  test.onTestFinished(() => {
    client.destroy()
  })
  const received: Buffer[] = []
  client.on('data', (chunk: Buffer) => received.push(chunk))
  const errors: Error[] = []
  client.on('error', (error) => errors.push(error))
  const server = await accepted
  const closed = new Promise((resolve) => server.once('close', resolve))
  return { app, client, received, errors, closed }
}

it('reads what the client still sends, and closes when the client is done', async (test) => {
  const { client, received, errors, closed } = await lingeringServer(test, {
    ms: 10_000,
    bytes: 1e6,
  })
  await once(client, 'end')
  for (let i = 0; i < 10; i++) client.write(Buffer.alloc(10_000))
  client.end()
  await closed
  expect(Buffer.concat(received).toString()).toBe('hi')
  expect(errors).toEqual([])
})

it('closes after its byte limit', async (test) => {
  const { client, closed } = await lingeringServer(test, { ms: 10_000, bytes: 50_000 })
  await once(client, 'end')
  const chunk = Buffer.alloc(10_000)
  const started = Date.now()
  for (let i = 0; i < 1000 && !client.destroyed && client.writable; i++) {
    await new Promise((resolve) => client.write(chunk, resolve))
  }
  await closed
  expect(Date.now() - started).toBeLessThan(10_000)
})

it('closes after its time limit', async (test) => {
  const { closed } = await lingeringServer(test, { ms: 200, bytes: 1e6 })
  const started = Date.now()
  await closed
  expect(Date.now() - started).toBeGreaterThanOrEqual(150)
})

it('ends at once when the app closes', async (test) => {
  const { app, closed } = await lingeringServer(test, { ms: 60_000, bytes: 1e6 })
  await app.close()
  await closed
})
