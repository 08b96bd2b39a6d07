import { expect, it } from 'vitest'
import { createOutages } from '../../src/http/outages.js'

function recordingLog() {
  const lines: string[] = []
  const record =
    (level: string) =>
    (fields: unknown, message?: string): void => {
      lines.push(`${level} ${message} ${JSON.stringify(fields)}`)
    }
  const log = { error: record('error'), info: record('info') }
  return { lines, log }
}

it('logs a fault once while it lasts, again when it changes, and the recovery once', () => {
  const { lines, log } = recordingLog()
  const outages = createOutages(log)
  const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })
  for (let i = 0; i < 5; i++) outages.failed('store', full)
  expect(lines).toHaveLength(1)
  expect(lines[0]).toContain('error the store cannot serve requests')
  expect(lines[0]).toContain('SQLITE_FULL')

  outages.failed('store', Object.assign(new Error('moved'), { code: 'SQLITE_READONLY_DBMOVED' }))
  expect(lines).toHaveLength(2)
  outages.recovered('store')
  outages.recovered('store')
  expect(lines.slice(2)).toEqual([expect.stringContaining('info the store serves requests again')])
  outages.failed('store', full)
  expect(lines).toHaveLength(4)
})

it('keeps each backend apart, with the message its reporter gives', () => {
  const { lines, log } = recordingLog()
  const outages = createOutages(log)
  const lost = new Error('redis is not reachable')
  outages.failed('limits', lost, 'Redis is not reachable: refusing')
  outages.failed('limits', lost, 'Redis is not reachable: refusing')
  outages.recovered('store')
  outages.failed('store', lost)
  expect(lines).toHaveLength(2)
  expect(lines[0]).toMatch(/^error Redis is not reachable: refusing .*"backend":"limits"/)
  outages.recovered('limits', 'Redis is back')
  expect(lines[2]).toMatch(/^info Redis is back .*"backend":"limits"/)
})
