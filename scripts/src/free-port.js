/**
 * A TCP port on 127.0.0.1 that was free a moment ago, for a test or the bench to hand a child
 * process (a service, a registry, a redis-server) that takes its port from its arguments. One
 * home for every package: plain JavaScript with its types beside it (free-port.d.ts), because
 * the bench imports it from its built `dist`, run by Node without a TypeScript loader.
 */
import { createServer } from 'node:net'

/** @returns {Promise<number>} */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}
