/**
 * The start of the request each connection is sending, as far as it has arrived: where a raw
 * answer (edge.ts) reads the method and path from when Node's parser refuses a request before
 * handing it over. The parser's own error carries at most the packet it failed on, so a head
 * that stalls (408) or arrives in several packets (431 on a long URL or late header lines)
 * would otherwise lose its request line, and with it the /v1 headers and the count.
 *
 * Only the first `prefixBytes` of each request are kept, and only until Node hands the request
 * over; the next request of a kept-alive connection starts once the previous answer is written.
 */
import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyReply } from 'fastify'

/** Enough for a method and a path under /v1 with its parameter (at most 100 characters). */
const prefixBytes = 1024

/** What a request's head said before the parser gave up. */
export interface RequestHead {
  method: string
  /** The request target as sent (path and query), possibly cut short. */
  url: string
  /** When its first byte arrived (ms since the epoch). */
  startedAt: number
}

interface Capture {
  /** The head so far (latin1), or undefined while a handed-over request is being answered. */
  text: string | undefined
  startedAt: number
}

/** `token SP origin-form`, then a space or the end of what has arrived. */
const requestLine = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\/[^\s]*)(?: |$)/

export interface RequestHeads {
  /** The head of the request `socket` is sending, if it has begun with a request line. */
  of(socket: Socket): RequestHead | undefined
  /** Node handed the socket's request over (`onRequest`): stop keeping its bytes. */
  handedOver(socket: Socket): void
}

/** @param answered the reply of the request last handed over on a socket */
export function captureRequestHeads(
  server: Server,
  answered: (socket: Socket) => FastifyReply | undefined,
): RequestHeads {
  const captures = new WeakMap<Socket, Capture>()
  server.on('connection', (socket: Socket) => {
    const capture: Capture = { text: '', startedAt: Date.now() }
    captures.set(socket, capture)
    // Before Node's parser, which may refuse the request within this chunk.
    socket.prependListener('data', (chunk: Buffer) => {
      if (capture.text === undefined) {
        if (answered(socket)?.raw.writableFinished !== true) return
        capture.text = ''
        capture.startedAt = Date.now()
      }
      if (capture.text.length < prefixBytes) {
        capture.text += chunk.toString('latin1', 0, prefixBytes - capture.text.length)
      }
    })
  })
  return {
    of(socket) {
      const capture = captures.get(socket)
      const line = requestLine.exec(capture?.text ?? '')
      if (capture === undefined || line === null) return undefined
      return { method: line[1] as string, url: line[2] as string, startedAt: capture.startedAt }
    },
    handedOver(socket) {
      const capture = captures.get(socket)
      if (capture !== undefined) capture.text = undefined
    },
  }
}
