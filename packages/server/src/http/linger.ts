/**
 * Lingering close (nginx's `lingering_close`): after answering a request whose body was not
 * read (a 413, a refused framing, a timeout), the server stops writing but keeps reading and
 * discarding what the client still sends, for a bounded time and number of bytes, and only then
 * closes. Closing at once would make the kernel answer the client's next body bytes with a
 * reset, and a client still writing its body (fetch/undici does) then fails with `EPIPE` or
 * `ECONNRESET` before it reads the answer that is waiting for it.
 *
 * @see https://nginx.org/en/docs/http/ngx_http_core_module.html#lingering_close
 * @see https://www.rfc-editor.org/rfc/rfc9112#section-9.6 tear-down: close in stages
 */
import { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'

declare module 'fastify' {
  interface FastifyInstance {
    lingering: Lingering
  }
}

export interface LingerLimits {
  /** How long the rest of a body is read at most, in milliseconds. */
  ms: number
  /** How many bytes of it are read at most. */
  bytes: number
}

/** Enough for a client to finish sending a few MiB over a slow link and read its answer. */
export const lingerLimits: LingerLimits = { ms: 5000, bytes: 16 * 1024 * 1024 }

/** The app's lingering connections (`app.lingering`). */
export interface Lingering {
  /**
   * Ends the writing side of `socket` (after what is already written, the answer), then reads
   * and drops whatever arrives until the client closes its side or a limit is reached, and
   * destroys the socket. The HTTP parser no longer sees those bytes: the connection carries no
   * further request.
   */
  close(socket: Socket): void
  /**
   * Makes Node's HTTP server close `socket` that way once its current response (sent with
   * `Connection: close`) is finished: Node ends such a connection through
   * `socket.destroySoon()`, which destroys it as soon as the answer is written.
   */
  afterResponse(socket: Socket): void
}

/**
 * Decorates `app.lingering`. Closing the app ends every lingering connection at once (and no
 * new one lingers), so that a shutdown never waits for a client that is still sending.
 */
export function registerLingering(
  app: FastifyInstance,
  limits: LingerLimits = lingerLimits,
): Lingering {
  const open = new Set<Socket>()
  let closing = false
  app.addHook('preClose', (done) => {
    closing = true
    for (const socket of open) socket.destroy()
    done()
  })
  const lingering: Lingering = {
    close(socket) {
      if (closing) Socket.prototype.destroySoon.call(socket)
      else if (!socket.destroyed) {
        open.add(socket)
        socket.once('close', () => open.delete(socket))
        lingeringClose(socket, limits)
      }
    },
    afterResponse(socket) {
      socket.destroySoon = () => lingering.close(socket)
    },
  }
  app.decorate('lingering', lingering)
  return lingering
}

function lingeringClose(socket: Socket, limits: LingerLimits): void {
  let left = limits.bytes
  const timer = setTimeout(() => socket.destroy(), limits.ms)
  timer.unref()
  socket.once('close', () => clearTimeout(timer))
  socket.removeAllListeners('data')
  // Node's HTTP server hands the socket back from its native parser when a `data` listener is
  // added, so from here on every byte comes here.
  socket.on('data', (chunk: Buffer) => {
    left -= chunk.length
    if (left < 0) socket.destroy()
  })
  socket.once('end', () => socket.destroy())
  socket.on('error', () => socket.destroy())
  socket.resume()
  socket.end()
}

declare module 'node:net' {
  interface Socket {
    /** Ends the socket, then destroys it once written (Node's, undocumented; see above). */
    destroySoon(): void
  }
}
