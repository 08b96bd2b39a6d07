import { describe, expect, it } from 'vitest'
import { createLog, type LogSink, redactHeaders } from '../src/logger.js'

function capture() {
  const lines: string[] = []
  const sink: LogSink = {
    debug: (message) => lines.push(`debug ${message}`),
    info: (message) => lines.push(`info ${message}`),
    warn: (message) => lines.push(`warn ${message}`),
    error: (message) => lines.push(`error ${message}`),
  }
  return { lines, sink }
}

describe('createLog', () => {
  it('keeps the levels from the one given on', () => {
    const { lines, sink } = capture()
    const log = createLog({ level: 'info', sink })
    log.debug?.('a')
    log.info?.('b')
    log.warn?.('c')
    log.error?.('d')
    expect(lines).toEqual(['info b', 'warn c', 'error d'])
    expect(log.debug).toBeUndefined()
  })

  it('logs warnings and errors by default, nothing when off', () => {
    expect(Object.keys(createLog({}))).toEqual(['warn', 'error'])
    expect(Object.keys(createLog({ level: 'off' }))).toEqual([])
  })
})

describe('redactHeaders', () => {
  it('hides credentials and idempotency keys', () => {
    const headers = new Headers({
      Authorization: 'Bearer psk_live_secret',
      'Idempotency-Key': '"key-1"',
      Accept: 'application/json',
    })
    expect(redactHeaders(headers)).toEqual({
      accept: 'application/json',
      authorization: '[redacted]',
      'idempotency-key': '[redacted]',
    })
  })
})
