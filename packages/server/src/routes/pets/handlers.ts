/**
 * The three pet operations. Inputs arrive validated (and defaults applied) from the spec's
 * schemas; outputs are serialized by the spec's response schemas, except listPets' page, which
 * the store hands over as JSON text already (PetPage.json).
 */
import type { NewPet, operations, Pet, PetStatus } from '@petstore/types'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { problem } from '../../errors.js'
import type { OperationRoute } from '../../http/operations.js'
import type { Idempotency } from '../../idempotency/idempotency.js'
import type { Store, StoredResponse } from '../../store/store.js'
import type { CursorCodec } from './cursor.js'

type ListQuery = Required<
  Pick<NonNullable<operations['listPets']['parameters']['query']>, 'limit'>
> &
  Omit<NonNullable<operations['listPets']['parameters']['query']>, 'limit'>
type GetParams = operations['getPet']['parameters']['path']

const jsonType = 'application/json; charset=utf-8'

export interface PetRouteDeps {
  store: Store
  cursors: CursorCodec
  idempotency: Idempotency
  /** e.g. `/v1`: prefix of Location and Link URLs. */
  basePath: string
}

export function createPetRoutes(
  deps: PetRouteDeps,
): Record<'listPets' | 'createPet' | 'getPet', OperationRoute> {
  const { store, cursors, idempotency, basePath } = deps
  const petsPath = `${basePath}/pets`

  async function listPets(request: FastifyRequest, reply: FastifyReply) {
    const query = request.query as ListQuery
    let afterId: number | undefined
    if (query.cursor !== undefined) {
      afterId = cursors.decode(query.cursor)
      if (afterId === undefined) {
        throw problem('invalidCursor')
      }
    }
    const page = await store.pets.list({ limit: query.limit, status: query.status, afterId })
    if (page.hasMore && page.lastId !== undefined) {
      const status = query.status === undefined ? '' : `&status=${query.status}`
      const next = `${petsPath}?limit=${query.limit}${status}&cursor=${cursors.encode(page.lastId)}`
      reply.header('link', `<${next}>; rel="next"`)
    }
    // The store's JSON is the body as the spec's serializer would write it (PetPage.json):
    // a string with a JSON content type is sent as it is.
    return reply.type(jsonType).send(page.json)
  }

  async function createPet(request: FastifyRequest, reply: FastifyReply) {
    const body = request.body as NewPet & { status: PetStatus }
    const held = request.idempotency
    const fingerprint = held === null ? '' : idempotency.fingerprint(body)
    if (held?.state === 'completed') {
      if (held.fingerprint !== fingerprint) {
        throw problem('idempotencyKeyReused')
      }
      return replay(reply, held.response)
    }
    const respond = (pet: Pet): StoredResponse => ({
      status: 201,
      body: JSON.stringify(pet),
      headers: { location: `${petsPath}/${pet.id}` },
    })
    const draft = { name: body.name, categoryId: body.categoryId, status: body.status }
    const pet =
      held?.state === 'claimed'
        ? await store.pets.create(draft, { scope: held.scope, key: held.key, fingerprint, respond })
        : await store.pets.create(draft)
    idempotency.completed(request)
    reply.code(201).header('location', `${petsPath}/${pet.id}`)
    return pet
  }

  async function getPet(request: FastifyRequest) {
    const { petId } = request.params as GetParams
    const pet = await store.pets.get(petId)
    if (pet === undefined) {
      const shown = Number.isSafeInteger(petId) ? String(petId) : 'with this id'
      throw problem('noSuchPet', { id: shown })
    }
    return pet
  }

  return {
    listPets: { handler: listPets },
    createPet: {
      handler: createPet,
      onRequest: [async (request) => idempotency.claim(request)],
      onResponse: [async (request) => idempotency.release(request)],
      onRequestAbort: [async (request) => idempotency.release(request)],
    },
    getPet: { handler: getPet },
  }
}

function replay(reply: FastifyReply, response: StoredResponse) {
  reply.code(response.status).headers(response.headers).header('idempotent-replayed', 'true')
  return JSON.parse(response.body) as Pet
}
