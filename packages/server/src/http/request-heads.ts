/**
 * The start of a request Node's parser refused before handing it over: where a raw answer
 * (edge.ts) reads the method and path from, to give it the /v1 headers and count it. The
 * parser's error carries at most the packet it failed on, so a head that stalls (408) or comes
 * in several packets (431 on a long URL or late header lines) would otherwise lose its request
 * line.
 *
 * The first packet of each connection is read before Node's HTTP parser sees the connection:
 * Node's own `connection` listener runs once that packet has arrived (or after
 * `firstPacketWaitMs`), with the packet put back for it to parse. A `data` listener kept on
 * every socket would see every request instead, but any such listener takes the socket off
 * Node's native parsing path (`unconsume`), on every request of every connection. So a
 * later request of a kept-alive connection is known only from the packet its parser failed on
 * (`headInPacket`), when that packet holds its request line.
 */
import type { Server } from 'node:http'
import type { Socket } from 'node:net'

/** Enough for a method and a path under /v1 with its parameter (at most 100 characters). */
const prefixBytes = 1024

/**
 * How long a connection may stay silent before Node's parser gets it anyway (its own timeouts
 * then apply, and a request line sent later is not captured).
 */
const firstPacketWaitMs = 1000

/** What a request's head said before the parser gave up. */
export interface RequestHead {
  method: string
  /** The request target as sent (path and query), possibly cut short. */
  url: string
  /** When its first byte arrived (ms since the epoch). */
  startedAt: number
}

/** `token SP origin-form`, then a space or the end of what has arrived. */
const requestLine = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\/[^\s]*)(?: |$)/

export interface RequestHeads {
  /** The head of the first request `socket` is sending, until Node hands that request over. */
  of(socket: Socket): RequestHead | undefined
  /** Node handed the socket's request over (`onRequest`): its head is no longer needed. */
  handedOver(socket: Socket): void
}

/** The request line at the start of `packet` (Node's `rawPacket` of a parse error), if any. */
export function headInPacket(
  packet: Buffer | undefined,
  startedAt: number,
): RequestHead | undefined {
  if (packet === undefined) return undefined
  return headIn(packet.toString('latin1', 0, prefixBytes), startedAt)
}

function headIn(text: string, startedAt: number): RequestHead | undefined {
  const line = requestLine.exec(text)
  if (line === null) return undefined
  return { method: line[1] as string, url: line[2] as string, startedAt }
}

type ConnectionListener = (this: Server, socket: Socket) => void

export function captureRequestHeads(server: Server): RequestHeads {
  const heads = new WeakMap<Socket, RequestHead>()
  const parse = server
    .listeners('connection')
    .find((listener) => listener.name === 'connectionListener') as ConnectionListener | undefined
  if (parse === undefined) {
    throw new Error("request-heads.ts: Node's HTTP connectionListener was not found on the server")
  }
  server.removeListener('connection', parse)
  server.prependListener('connection', (socket: Socket) => {
    const startedAt = Date.now()
    let waiting = true
    const stopWaiting = () => {
      waiting = false
      clearTimeout(timer)
      socket.removeListener('data', first)
      socket.removeListener('end', ended)
    }
    const handOver = () => {
      if (!waiting) return
      stopWaiting()
      if (socket.destroyed) return
      // A connection that stayed silent past a shutdown would hold it until Node's timeouts.
      if (!server.listening) {
        socket.destroy()
        return
      }
      parse.call(server, socket)
      socket.resume()
    }
    const first = (chunk: Buffer) => {
      socket.pause()
      socket.unshift(chunk)
      const head = headInPacket(chunk, startedAt)
      if (head !== undefined) heads.set(socket, head)
      handOver()
    }
    // The server's sockets are half-open (allowHalfOpen): one its client ended before sending
    // anything would stay open, and counted, with nobody to close it.
    const ended = () => {
      if (!waiting) return
      stopWaiting()
      socket.destroy()
    }
    const timer = setTimeout(handOver, firstPacketWaitMs)
    socket.on('data', first)
    socket.once('end', ended)
    socket.once('close', () => clearTimeout(timer))
  })
  return {
    of: (socket) => heads.get(socket),
    handedOver(socket) {
      heads.delete(socket)
    },
  }
}
