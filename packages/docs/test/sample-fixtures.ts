/**
 * The state a code sample needs, made for it on a real server just before it runs, so that the
 * samples pass in any order and a destructive one (`deletePet`) acts on a resource of its own.
 * Everything is read from the spec, so a new operation gets the same treatment:
 *
 * - a path parameter that names a resource (`petId` of `/pets/{petId}`) gets a new one, made by
 *   the `POST` of its collection (`/pets`) with that operation's own prepared sample request; its
 *   id is read from the `Location` of the answer;
 * - a body property or query parameter named like such a path parameter (`placeOrder`'s
 *   `petId`, `listOrders`' `petId` filter) names a new resource too: an order is placed for a
 *   pet that is `available`;
 * - a `GET` of a collection gets one new item, which such a filter then selects.
 *
 * A new resource is in its first state, the one the spec's first examples start from (a `placed`
 * order, which `updateOrder`'s example approves).
 */
import { requestUrl, type SampleRequest, sampleRequest } from '../src/code-samples.js'
import { listOperations, type OpenApiDocument, type OperationEntry } from '../src/openapi.js'

/** Where and as whom the fixtures are made: the key the sample itself runs with. */
export interface Api {
  /** The service's base URL, `/v1` included. */
  baseUrl: string
  apiKey: string
}

/** A collection whose `POST` makes the resources one path parameter names. */
interface Collection {
  /** The path parameter, e.g. `petId`. */
  parameter: string
  /** The item's path template, e.g. `/pets/{petId}`. */
  item: string
  create: OperationEntry
}

/** A resource made for a sample: the id its path parameter takes, and its representation. */
interface Made {
  id: unknown
  body: Record<string, unknown>
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The collections of `document`, by the path parameter that names their items. */
function collections(document: OpenApiDocument): Map<string, Collection> {
  const operations = listOperations(document)
  const found = new Map<string, Collection>()
  for (const create of operations.filter((entry) => entry.method === 'post')) {
    const item = Object.keys(document.paths).find((path) =>
      new RegExp(`^${escapeRegExp(create.path)}/\\{[^}/]+\\}$`).test(path),
    )
    const parameter = item?.slice(create.path.length + 2, -1)
    if (item && parameter) found.set(parameter, { parameter, item, create })
  }
  return found
}

/** Sends `request` for `entry` as the samples do: the key as a bearer token, the declared body type. */
function send(api: Api, entry: OperationEntry, request: SampleRequest): Promise<Response> {
  const headers: Record<string, string> = { Authorization: `Bearer ${api.apiKey}` }
  const init: RequestInit = { method: entry.method.toUpperCase(), headers }
  if (request.body !== undefined) {
    headers['Content-Type'] = entry.bodyMediaType as string
    init.body = JSON.stringify(request.body)
  }
  return fetch(requestUrl(api.baseUrl, entry, request), init)
}

/** Preparing requests for one document's samples. */
export function sampleFixtures(document: OpenApiDocument) {
  const byParameter = collections(document)

  /** The id in `location` (the address of a new resource), matched with the item's template. */
  function idIn(location: string, collection: Collection, example: unknown): unknown {
    const [before = '', after = ''] = collection.item.split(`{${collection.parameter}}`)
    const pattern = new RegExp(`${escapeRegExp(before)}([^/]+)${escapeRegExp(after)}$`)
    const raw = pattern.exec(new URL(location, 'http://localhost').pathname)?.[1]
    if (raw === undefined) {
      throw new Error(
        `${collection.create.operation.operationId}: its Location ${location} is no ${collection.item}`,
      )
    }
    const id = decodeURIComponent(raw)
    return typeof example === 'number' ? Number(id) : id
  }

  /** A new resource of `collection`, made with `api`'s key. */
  async function make(api: Api, collection: Collection, example: unknown): Promise<Made> {
    const { create } = collection
    const response = await send(api, create, await prepare(api, create))
    const text = await response.text()
    const location = response.headers.get('location')
    if (!response.ok || location === null) {
      throw new Error(
        `a ${collection.parameter} for a sample: ${create.operation.operationId} answered ${response.status} ${location === null ? 'without Location' : ''} ${text}`,
      )
    }
    return { id: idIn(location, collection, example), body: JSON.parse(text) }
  }

  /**
   * The request `entry`'s samples send (its examples), with every resource it names made for it
   * with `api`'s key.
   */
  async function prepare(api: Api, entry: OperationEntry): Promise<SampleRequest> {
    const request = structuredClone(sampleRequest(document, entry))
    for (const [name, example] of Object.entries(request.path)) {
      const collection = byParameter.get(name)
      if (collection) request.path[name] = (await make(api, collection, example)).id
    }
    const body = request.body
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
      const fields = body as Record<string, unknown>
      for (const [name, example] of Object.entries(fields)) {
        const collection = byParameter.get(name)
        if (collection) fields[name] = (await make(api, collection, example)).id
      }
    }
    const listed = [...byParameter.values()].find(
      (collection) => entry.method === 'get' && collection.create.path === entry.path,
    )
    const item = listed && (await make(api, listed, undefined))
    for (const [name, example] of Object.entries(request.query)) {
      const collection = byParameter.get(name)
      if (!collection) continue
      request.query[name] =
        item && name in item.body ? item.body[name] : (await make(api, collection, example)).id
    }
    return request
  }

  return { prepare }
}
