/**
 * The JSON body parser. The bytes must be UTF-8 (decoded strictly, so that an
 * accepted name round-trips byte for byte instead of being stored with U+FFFD in place of what
 * was sent); plain JSON.parse then reads them: keys such as `__proto__` become own properties
 * (never prototypes) and the spec's `additionalProperties: false` rejects them by name. A key
 * given twice in an object and an integer field written as anything but exact digits are
 * refused (json-text.ts). A charset other than UTF-8 is 415 (RFC 8259 §8.1: JSON is UTF-8).
 * The bytes are read by body-reader.ts, up to the app's `bodyLimit`.
 */
import type { Readable } from 'node:stream'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { bodyLimit, problem } from '../errors.js'
import { describeLocation } from '../spec/messages.js'
import { readBody } from './body-reader.js'
import { integerPaths, readJsonText, type TextFlaw } from './json-text.js'

const charsetParameter = /;\s*charset\s*=\s*"?([^";\s]+)"?/i

/** `ignoreBOM` keeps a byte order mark in the text, where JSON.parse refuses it (RFC 8259 §8.1). */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/**
 * The only body parser, for every JSON media type (`application/json` and `application/*+json`,
 * such as RFC 7396's `application/merge-patch+json`): every other (text/plain included) is 415.
 * Which of them an operation takes is its own (media-types.ts).
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers()
  const parse = (request: FastifyRequest, payload: Readable, done: ParserDone) => {
    readBody(payload, request.headers['content-length'], bodyLimit, (error, body) => {
      if (error !== null) done(error)
      else parseJsonBody(request, body as Buffer, done)
    })
  }
  app.addContentTypeParser('application/json', parse)
  // Fastify tests a pattern against the whole value, parameters (`; charset=utf-8`) included.
  app.addContentTypeParser(/^application\/[a-z0-9!#$&^_.-]+\+json(;|$)/, parse)
}

type ParserDone = (error: Error | null, value?: unknown) => void

function parseJsonBody(request: FastifyRequest, body: Buffer, done: ParserDone): void {
  const charset = charsetParameter.exec(request.headers['content-type'] ?? '')?.[1]
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
    done(problem('notUtf8'))
    return
  }
  let text: string
  try {
    text = utf8.decode(body)
  } catch {
    done(problem('bodyNotUtf8'))
    return
  }
  if (text.trim() === '') {
    done(problem('bodyEmpty'))
    return
  }
  // Asked only of a number that is not plain digits: `routeOptions` is a getter that builds
  // a dozen-field object on every read, which a body of integers and strings never needs.
  const isInteger = (path: readonly string[]) =>
    integerPaths(request.routeOptions.schema?.body)(path)
  const reading = readJsonText(text, isInteger)
  if (reading.ok) done(null, reading.value)
  else done(flawProblem(reading.flaw))
}

function flawProblem(flaw: TextFlaw) {
  if (flaw.kind === 'notJson') return problem('bodyNotJson')
  const where = describeLocation('body', flaw.path.map((segment) => `/${segment}`).join(''))
  return flaw.kind === 'duplicateKey'
    ? problem('duplicateKey', { where, key: flaw.key })
    : problem('inexactInteger', { where })
}
