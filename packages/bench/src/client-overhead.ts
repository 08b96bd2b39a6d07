/**
 * Workload (f): what `@petstore/client` costs per call over a bare `fetch` doing the same
 * request and JSON parsing, in this process, one call at a time and with many in flight.
 * Raw and client loops alternate in rounds (order swapped each round); the figure is the median
 * time per call.
 */
import { performance } from 'node:perf_hooks'
import { createPetstoreClient } from '@petstore/client'
import { median } from './stats.js'
import { bearer, knownPetId } from './workloads.js'

export type ClientMode = 'sequential' | 'concurrent'
export type ClientOperation = 'listPets' | 'getPet'

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
  clientMs: number
  /** clientMs / rawMs. */
  ratio: number
}

type Call = () => Promise<void>

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
  const rawJson = (path: string): Call => {
    const url = `${baseUrl}${path}`
    return async () => {
      const response = await fetch(url, { headers })
      if (!response.ok) throw new Error(`raw fetch of ${path} answered ${response.status}`)
      await response.json()
    }
  }
  const paths: Record<ClientOperation, { raw: Call; client: Call }> = {
    listPets: {
      raw: rawJson('/v1/pets?limit=20'),
      client: async () => {
        const { error } = await client.GET('/pets', { params: { query: { limit: 20 } } })
        if (error !== undefined) throw new Error(`client listPets failed: ${error.code}`)
      },
    },
    getPet: {
      raw: rawJson(`/v1/pets/${knownPetId}`),
      client: async () => {
        const { error } = await client.GET('/pets/{petId}', {
          params: { path: { petId: knownPetId } },
        })
        if (error !== undefined) throw new Error(`client getPet failed: ${error.code}`)
      },
    },
  }

  const results: ClientOverheadResult[] = []
  for (const operation of ['listPets', 'getPet'] as const) {
    for (const mode of ['sequential', 'concurrent'] as const) {
      const inFlight = mode === 'sequential' ? 1 : plan.concurrency
      const { raw, client: viaClient } = paths[operation]
      await timePerCall(raw, Math.min(plan.calls, 200), inFlight)
      await timePerCall(viaClient, Math.min(plan.calls, 200), inFlight)
      const rawTimes: number[] = []
      const clientTimes: number[] = []
      for (let round = 0; round < plan.rounds; round++) {
        const order = round % 2 === 0 ? [raw, viaClient] : [viaClient, raw]
        for (const call of order) {
          const ms = await timePerCall(call, plan.calls, inFlight)
          ;(call === raw ? rawTimes : clientTimes).push(ms)
        }
      }
      const rawMs = median(rawTimes)
      const clientMs = median(clientTimes)
      results.push({
        operation,
        mode,
        concurrency: inFlight,
        rawMs,
        clientMs,
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
