/**
 * The body reader on real streams: what it hands over, and that each request gets one outcome
 * however its stream goes on. Over HTTP, bad-input.test.ts sends bodies over the limit, with and
 * without a declared length.
 */
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { type BodyDone, readBody } from '../../src/http/body-reader.js'

type Outcome = { error: (Error & { statusCode?: number; status?: number }) | null; body?: Buffer }

/** Reads `stream` and records every call of `done`, so a second outcome shows. */
function reading(stream: PassThrough, declared: string | undefined, limit: number) {
  const outcomes: Outcome[] = []
  const done: BodyDone = (error, body) => outcomes.push({ error, body })
  readBody(stream, declared, limit, done)
  return outcomes
}

const ended = (stream: PassThrough) => new Promise((resolve) => stream.once('end', resolve))

describe('readBody', () => {
  it('hands over the chunks as one buffer, once', async () => {
    const stream = new PassThrough()
    const outcomes = reading(stream, '11', 100)
    stream.write('hello ')
    stream.end('world')
    await ended(stream)
    stream.emit('error', new Error('after the end'))
    expect(outcomes).toHaveLength(1)
    expect(outcomes[0]?.error).toBeNull()
    expect(outcomes[0]?.body?.toString()).toBe('hello world')
  })

  it('reads a stream that was paused before it', async () => {
    const stream = new PassThrough()
    stream.pause()
    const outcomes = reading(stream, '2', 100)
    stream.end('ok')
    await ended(stream)
    expect(outcomes[0]?.body?.toString()).toBe('ok')
  })

  it('refuses a declared length over the limit before reading', () => {
    const stream = new PassThrough()
    const outcomes = reading(stream, '101', 100)
    expect(outcomes).toHaveLength(1)
    expect(outcomes[0]?.error?.status).toBe(413)
    expect(stream.listenerCount('data')).toBe(0)
  })

  it('refuses a body without a declared length once it passes the limit, and only once', async () => {
    const stream = new PassThrough()
    const outcomes = reading(stream, undefined, 100)
    stream.write(Buffer.alloc(60))
    expect(outcomes).toHaveLength(0)
    stream.write(Buffer.alloc(60))
    stream.end(Buffer.alloc(60))
    await ended(stream)
    expect(outcomes).toHaveLength(1)
    expect(outcomes[0]?.error?.status).toBe(413)
  })

  it('takes a body of exactly the limit', async () => {
    const stream = new PassThrough()
    const outcomes = reading(stream, undefined, 100)
    stream.end(Buffer.alloc(100, 'a'))
    await ended(stream)
    expect(outcomes[0]?.error).toBeNull()
    expect(outcomes[0]?.body).toHaveLength(100)
  })

  it("makes a stream's error a client error unless it carries its own status", () => {
    const aborted = new PassThrough()
    const first = reading(aborted, '10', 100)
    aborted.write('abc')
    aborted.emit('error', Object.assign(new Error('aborted'), { code: 'ECONNRESET' }))
    expect(first).toHaveLength(1)
    expect(first[0]?.error?.message).toBe('aborted')
    expect(first[0]?.error?.statusCode).toBe(400)

    const refused = new PassThrough()
    const second = reading(refused, '10', 100)
    refused.emit('error', Object.assign(new Error('gone'), { statusCode: 408 }))
    expect(second[0]?.error?.statusCode).toBe(408)
  })
})
