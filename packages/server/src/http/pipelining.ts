/**
 * At most one response in flight per connection. Node's HTTP server parses every pipelined
 * request a client sends and hands each to the app at once; the answers of all but the first
 * wait in memory behind the connection until the client reads. A client that pipelines large
 * responses and never reads would have them all held (gigabytes, for large pages).
 * Here a pipelined request reaches the app only once the answer before it has gone out, and the
 * connection is not read while one waits, so what a connection holds is one answer and the
 * requests of one read.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9112#section-9.3.2 (pipelining: answers in order)
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void

/** Requests of a connection waiting for the answer before theirs. */
const waiting = new WeakMap<Socket, number>()

/**
 * Wraps the request listeners `server` has now (the app's) so that a pipelined request runs
 * when its response gets the connection. Listeners added later run at once for every request
 * (the metrics' count of requests received).
 *
 * @example
 * ```ts
 * const app = Fastify(options)
 * answerInTurn(app.server)
 * ```
 */
export function answerInTurn(server: Server): void {
  const listeners = server.listeners('request') as RequestListener[]
  server.removeAllListeners('request')
  const handle: RequestListener = (request, response) => {
    for (const listener of listeners) listener.call(server, request, response)
  }
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    // Node gives a response its connection once the answers before it are written; until then
    // it has none.
    if (response.socket !== null) return handle(request, response)
    const socket = request.socket
    const count = (waiting.get(socket) ?? 0) + 1
    waiting.set(socket, count)
    if (count === 1) socket.pause()
    response.once('socket', () => {
      const left = (waiting.get(socket) ?? 1) - 1
      if (left === 0) {
        waiting.delete(socket)
        // Node keeps a connection paused itself while too much is queued to write.
        socket.resume()
      } else {
        waiting.set(socket, left)
      }
      handle(request, response)
    })
  })
}
