/**
 * Workload (f): what `@petstore/client` costs per call over a bare `fetch` doing the same
 * request and JSON parsing, in this process, one call at a time and with many in flight. A
 * plain openapi-fetch client (no middleware) is measured alongside: the client is built on it,
 * so its cost is the floor of ours. The loops alternate in rounds (order rotated each round);
 * each figure is the median time per call.
 */
import { performance } from 'node:perf_hooks'
import { createPetstoreClient } from '@petstore/client'
import type { OperationId, paths } from '@petstore/types'
import createClient from 'openapi-fetch'
import { median } from './stats.js'
import { bearer, knownPetId } from './workloads.js'

export type ClientMode = 'sequential' | 'concurrent'

/** The reads measured, in this order; each names an operation of the spec. */
const measured = ['listPets', 'getPet'] as const satisfies readonly OperationId[]
export type ClientOperation = (typeof measured)[number]

export interface ClientOverheadPlan {
  /** Calls per loop. */
  calls: number
  rounds: number
  /** Calls in flight in the concurrent mode. */
  concurrency: number
}

export interface ClientOverheadResult {
  operation: ClientOperation
  mode: ClientMode
  concurrency: number
  /** Median milliseconds per call. */
  rawMs: number
  /** openapi-fetch alone: `createClient<paths>` with the key as a default header. */
  libraryMs: number
  clientMs: number
  /** libraryMs / rawMs. */
  libraryRatio: number
  /** clientMs / rawMs. */
  ratio: number
}

type Call = () => Promise<void>

/** The three ways of making the same call: bare fetch, openapi-fetch alone, our client. */
type Caller = 'raw' | 'library' | 'client'
const callers: readonly Caller[] = ['raw', 'library', 'client']

/** Measures listPets (limit 20) and getPet through both paths against `baseUrl` (no `/v1`). */
export async function measureClientOverhead(
  baseUrl: string,
  apiKey: string,
  plan: ClientOverheadPlan,
): Promise<ClientOverheadResult[]> {
  const headers = bearer(apiKey)
  const client = createPetstoreClient({
    baseUrl: `${baseUrl}/v1`,
    apiKey,
    onDeprecation: () => {},
  })
  const library = createClient<paths>({ baseUrl: `${baseUrl}/v1`, headers })
  const rawJson = (path: string): Call => {
    const url = `${baseUrl}${path}`
    return async () => {
      const response = await fetch(url, { headers })
      if (!response.ok) throw new Error(`raw fetch of ${path} answered ${response.status}`)
      await response.json()
    }
  }
  const operations: Record<ClientOperation, Record<Caller, Call>> = {
    listPets: {
      raw: rawJson('/v1/pets?limit=20'),
      library: async () => {
        const { error } = await library.GET('/pets', { params: { query: { limit: 20 } } })
        if (error !== undefined) throw new Error(`openapi-fetch listPets failed: ${error.code}`)
      },
      client: async () => {
        const { error } = await client.GET('/pets', { params: { query: { limit: 20 } } })
        if (error !== undefined) throw new Error(`client listPets failed: ${error.code}`)
      },
    },
    getPet: {
      raw: rawJson(`/v1/pets/${knownPetId}`),
      library: async () => {
        const { error } = await library.GET('/pets/{petId}', {
          params: { path: { petId: knownPetId } },
        })
        if (error !== undefined) throw new Error(`openapi-fetch getPet failed: ${error.code}`)
      },
      client: async () => {
        const { error } = await client.GET('/pets/{petId}', {
          params: { path: { petId: knownPetId } },
        })
        if (error !== undefined) throw new Error(`client getPet failed: ${error.code}`)
      },
    },
  }

  const results: ClientOverheadResult[] = []
  for (const operation of measured) {
    for (const mode of ['sequential', 'concurrent'] as const) {
      const inFlight = mode === 'sequential' ? 1 : plan.concurrency
      const calls = operations[operation]
      for (const caller of callers)
        await timePerCall(calls[caller], Math.min(plan.calls, 200), inFlight)
      const times: Record<Caller, number[]> = { raw: [], library: [], client: [] }
      for (let round = 0; round < plan.rounds; round++) {
        for (let turn = 0; turn < callers.length; turn++) {
          const caller = callers[(round + turn) % callers.length] as Caller
          times[caller].push(await timePerCall(calls[caller], plan.calls, inFlight))
        }
      }
      const rawMs = median(times.raw)
      const libraryMs = median(times.library)
      const clientMs = median(times.client)
      results.push({
        operation,
        mode,
        concurrency: inFlight,
        rawMs,
        libraryMs,
        clientMs,
        libraryRatio: libraryMs / rawMs,
        ratio: clientMs / rawMs,
      })
    }
  }
  return results
}

/** Runs `calls` calls with `inFlight` loops and returns milliseconds per call. */
async function timePerCall(call: Call, calls: number, inFlight: number): Promise<number> {
  let left = calls
  const loop = async () => {
    while (left > 0) {
      left--
      await call()
    }
  }
  const started = performance.now()
  await Promise.all(Array.from({ length: inFlight }, loop))
  return (performance.now() - started) / calls
}
