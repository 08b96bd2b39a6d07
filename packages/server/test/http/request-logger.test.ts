import Fastify, { type FastifyBaseLogger } from 'fastify'
import { expect, it } from 'vitest'
import { requestLogger } from '../../src/http/request-logger.js'

function rootLogger() {
  const lines: Record<string, unknown>[] = []
  const app = Fastify({
    logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
  })
  const root = app.log
  let children = 0
  const child = root.child
  // pino's children inherit `child` from their parent, so the spy must keep `this`.
  root.child = function (this: FastifyBaseLogger, ...args: Parameters<FastifyBaseLogger['child']>) {
    children++
    return child.apply(this, args)
  }
  return { root, lines, children: () => children }
}

it('builds the child logger only when the request logs at an enabled level', () => {
  const { root, lines, children } = rootLogger()
  const log = requestLogger(root, { requestId: 'r-1' }, {})
  log.debug('not at info level')
  expect(children()).toBe(0)
  expect(log.level).toBe('info')
  log.warn({ keyId: 'key_1' }, 'first')
  log.error('second')
  expect(children()).toBe(1)
  expect(lines).toEqual([
    expect.objectContaining({ level: 40, requestId: 'r-1', keyId: 'key_1', msg: 'first' }),
    expect.objectContaining({ level: 50, requestId: 'r-1', msg: 'second' }),
  ])
})

it('passes the level and further children through to the real child logger', () => {
  const { root, lines } = rootLogger()
  const log = requestLogger(root, { requestId: 'r-2' }, {})
  log.level = 'debug'
  log.debug('now enabled')
  log.child({ step: 'inner' }).info('nested')
  expect(root.level).toBe('info')
  expect(lines).toEqual([
    expect.objectContaining({ level: 20, requestId: 'r-2', msg: 'now enabled' }),
    expect.objectContaining({ level: 30, requestId: 'r-2', step: 'inner', msg: 'nested' }),
  ])
})
