/**
 * The `application/json` body parser. Plain JSON.parse: keys such as `__proto__` become own
 * properties (never prototypes) and the spec's `additionalProperties: false` then rejects them
 * by name. A charset other than UTF-8 is 415 (RFC 8259 §8.1: JSON is UTF-8).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { problem } from '../errors.js'

const charsetParameter = /;\s*charset\s*=\s*"?([^";\s]+)"?/i

/** The only body parser: every other media type (text/plain included) is 415. */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (
      request: FastifyRequest,
      body: string | Buffer,
      done: (error: Error | null, value?: unknown) => void,
    ) => {
      const charset = charsetParameter.exec(request.headers['content-type'] ?? '')?.[1]
      if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
        done(problem('notUtf8'))
        return
      }
      const text = typeof body === 'string' ? body : body.toString('utf8')
      if (text.trim() === '') {
        done(problem('bodyEmpty'))
        return
      }
      try {
        done(null, JSON.parse(text))
      } catch {
        done(problem('bodyNotJson'))
      }
    },
  )
}
