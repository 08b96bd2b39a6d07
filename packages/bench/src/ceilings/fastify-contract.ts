/**
 * The contract ceiling's work (contract.ts: the key's hash looked up, two fixed windows and
 * their headers, a generated `X-Request-Id`, `nosniff`, `no-store`, getPet's deprecation
 * headers, hand-checked creates committed a turn at a time, a JSON log line per request) served
 * through Fastify instead of bare node:http: Fastify routes, reads the body, runs one `onRequest`
 * and one `onResponse` hook, and writes the replies. Beside the service and the bare ceiling it
 * splits the service's gap in two: what Fastify costs, and what the service's own steps on top
 * of it cost (`write-path --ceiling-on-fastify`).
 *
 * listPets, getPet and createPet, as the bench sends them (no `Origin`, so no CORS).
 */
import { randomUUID } from 'node:crypto'
import Fastify, { type FastifyReply } from 'fastify'
import { petJson } from '../pet-documents.js'
import {
  type ContractCeiling,
  count,
  createLog,
  deprecation,
  errorBody,
  groupCommit,
  type Headers,
  identify,
  type ListedPage,
  loadKeys,
  maxBody,
  pageLister,
  Refusal,
  readNewPet,
  strictInteger,
} from './contract.js'
import { createContractCursors } from './contract-cursor.js'
import { openPetDatabase } from './data-path.js'

const json = 'application/json; charset=utf-8'

declare module 'fastify' {
  interface FastifyRequest {
    startedAt: number
  }
}

/** Resolves once Fastify is ready; the caller listens on `server`. */
export async function createFastifyContractCeiling(
  dbPath: string,
  logPath: string,
): Promise<ContractCeiling> {
  const { db, pageStatement, byId, insert } = openPetDatabase(dbPath)
  const list = pageLister(pageStatement, createContractCursors())
  const callers = loadKeys(db)
  const log = createLog(logPath)
  const app = Fastify({ logger: false, genReqId: () => randomUUID(), bodyLimit: maxBody })

  const fail = (reply: FastifyReply, refusal: Refusal) =>
    reply.code(refusal.status).type(json).send(errorBody(refusal))

  app.decorateRequest('startedAt', 0)
  app.addHook('onRequest', (request, reply, done) => {
    request.startedAt = performance.now()
    const headers: Headers = {
      'x-request-id': request.id,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    }
    try {
      count(identify(callers, request.headers.authorization, headers), headers)
    } catch (error) {
      fail(reply.headers(headers), error as Refusal)
      done()
      return
    }
    reply.headers(headers)
    done()
  })
  app.addHook('onResponse', (request, reply, done) => {
    log(request.startedAt, request.id, request.method, request.url, reply.statusCode)
    done()
  })
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  )

  const store = groupCommit<FastifyReply>(db, insert, {
    created(reply, pet) {
      reply
        .code(201)
        .header('location', `/v1/pets/${pet.id}`)
        .type(json)
        .send(petJson(pet.id, pet.doc))
    },
    failed: fail,
  })

  app.post('/v1/pets', (request, reply) => {
    const draft = readNewPet(typeof request.body === 'string' ? request.body : '')
    if (draft instanceof Refusal) return fail(reply, draft)
    store(draft, reply)
    return reply
  })
  app.get<{ Querystring: Record<string, string | string[] | undefined> }>(
    '/v1/pets',
    (request, reply) => {
      const values = (name: string) => {
        const value = request.query[name]
        return value === undefined ? [] : [value].flat()
      }
      let page: ListedPage
      try {
        page = list(values)
      } catch (error) {
        return fail(reply, error as Refusal)
      }
      if (page.link !== undefined) reply.header('link', page.link)
      return reply.type(json).send(page.body)
    },
  )
  app.get<{ Params: { petId: string } }>('/v1/pets/:petId', (request, reply) => {
    reply.headers(deprecation)
    const { petId } = request.params
    const id = Number(petId)
    if (!strictInteger.test(petId) || !Number.isSafeInteger(id)) {
      return fail(
        reply,
        new Refusal(400, 'invalid_request', 'path parameter petId must be a positive integer'),
      )
    }
    const row = byId.get(id)
    if (row === undefined) return fail(reply, new Refusal(404, 'not_found', `pet ${id} not found`))
    return reply.type(json).send(petJson(row.id, row.doc))
  })
  await app.ready()
  return {
    server: app.server,
    close: async () => {
      await log.close()
      db.close()
    },
  }
}
