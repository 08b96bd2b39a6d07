import Fastify, { type FastifyBaseLogger, LogController } from 'fastify'
import { expect, it } from 'vitest'
import { lazyRequestLoggers } from '../../src/http/request-logger.js'

/** A Fastify app whose root logger hands out thin loggers, counting the pino children built. */
function rootLogger() {
  const lines: Record<string, unknown>[] = []
  const app = Fastify({
    logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
    // As in the service, whose completion line is its own (completion-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
  })
  const root = app.log
  let children = 0
  const child = root.child
  // pino's children inherit `child` from their parent, so the spy must keep `this`.
  root.child = function (this: FastifyBaseLogger, ...args: Parameters<FastifyBaseLogger['child']>) {
    children++
    return child.apply(this, args)
  }
  lazyRequestLoggers(root)
  return { app, root, lines, children: () => children }
}

it('builds the child logger only when the request logs at an enabled level', () => {
  const { root, lines, children } = rootLogger()
  const log = root.child({ requestId: 'r-1' }, {})
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
  const log = root.child({ requestId: 'r-2' }, {})
  log.level = 'debug'
  log.debug('now enabled')
  log.child({ step: 'inner' }).info('nested')
  expect(root.level).toBe('info')
  expect(lines).toEqual([
    expect.objectContaining({ level: 20, requestId: 'r-2', msg: 'now enabled' }),
    expect.objectContaining({ level: 30, requestId: 'r-2', step: 'inner', msg: 'nested' }),
  ])
})

it("is what Fastify gives each request, built into pino's only when the request logs", async () => {
  const { app, lines, children } = rootLogger()
  app.get('/', async (request) => {
    if ('log' in (request.query as object)) request.log.warn('asked to')
    return 'ok'
  })
  for (const url of ['/', '/', '/?log', '/']) {
    expect((await app.inject(url)).statusCode).toBe(200)
  }
  expect(children()).toBe(1)
  expect(lines).toEqual([expect.objectContaining({ level: 40, reqId: 'req-3', msg: 'asked to' })])
  await app.close()
})
