/**
 * Reads a request body into one Buffer, with the rules of Fastify's own reader (its `rawBody`):
 * a declared or received length over the limit is 413, and an error of the stream (the client
 * gone mid-body) is 400 unless it says otherwise.
 *
 * Fastify's reader takes its three listeners off the stream again when the body ends, three
 * `removeListener` calls per body. Here they stay on a stream that has ended, and each ignores
 * what comes after the first outcome: an ended request emits nothing more, and it is dropped
 * with its response.
 */
import type { Readable } from 'node:stream'
import { problem } from '../errors.js'

export type BodyDone = (error: Error | null, body?: Buffer) => void

export function readBody(
  payload: Readable,
  declaredLength: string | undefined,
  limit: number,
  done: BodyDone,
): void {
  // NaN without the header (a chunked body): then only the limit applies.
  const expected = Number(declaredLength)
  if (expected > limit) {
    done(problem('payloadTooLarge'))
    return
  }
  let chunks: Buffer[] | undefined = []
  let received = 0
  const settle = (error: Error | null, body?: Buffer) => {
    chunks = undefined
    done(error, body)
  }
  payload.on('data', (chunk: Buffer) => {
    if (chunks === undefined) return
    received += chunk.length
    if (received > limit) settle(problem('payloadTooLarge'))
    else chunks.push(chunk)
  })
  // Node's parser hands over exactly `Content-Length` bytes, or the stream errs: unlike
  // Fastify's reader, which may read a stream a hook made, no length is compared at the end.
  // A body of one chunk is handed over as it came, a view of the socket's read buffer, where
  // Fastify copies it: json-body.ts decodes it at once and keeps nothing of it.
  payload.on('end', () => {
    if (chunks === undefined) return
    settle(null, chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, received))
  })
  payload.on('error', (error: Error & { statusCode?: unknown }) => {
    if (chunks === undefined) return
    // As Fastify's reader: the stream's error is the client's (400) unless it says otherwise.
    if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400
    settle(error)
  })
  // A `data` listener does not restart a stream that was paused (by a hook, say): this does.
  payload.resume()
}
