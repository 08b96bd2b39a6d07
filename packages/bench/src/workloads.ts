/**
 * The workloads of the issue, as HTTP calls. Every target gets the same bytes except the deep
 * cursor, which each target hands out in its own format (found through its own API).
 */
import { createContractCursors } from './ceilings/contract-cursor.js'
import type { HttpCall } from './load.js'
import { listingPath, type WalkedPage } from './probe.js'
import type { TargetName } from './targets.js'

export type WorkloadId =
  | 'list-20'
  | 'list-100'
  | 'get'
  | 'create'
  | 'first-page'
  | 'deep-page'
  | 'walk-20'
  | 'walk-20-available'
  | 'walk-100'
  | 'walk-20-small'

export interface Workload {
  id: WorkloadId
  /** How the report names it, e.g. `(a) GET /v1/pets?limit=20`. */
  label: string
  /** What the database holds while it runs, e.g. `1,000 pets`. */
  data: string
  /** What each target is sent again and again (a walk: its first page). */
  calls: Readonly<Record<TargetName, HttpCall>>
  /**
   * A cold walk: every page of a listing, sent in turn over all connections together, so that
   * each page is asked for once per lap (no cache of recent pages or cursors can answer it).
   * The wire ceiling replays the first page, a page of the same size.
   */
  rotation?: Readonly<Record<Exclude<TargetName, 'wire'>, readonly HttpCall[]>>
}

/** The same call for every target. */
function everywhere(call: HttpCall): Record<TargetName, HttpCall> {
  return { service: call, wire: call, 'data-path': call, contract: call }
}

export function bearer(apiKey: string): Record<string, string> {
  return { authorization: `Bearer ${apiKey}` }
}

/** A pet in the middle of the 1,000 (getPet reads it). */
export const knownPetId = 500

export const newPetBody = JSON.stringify({ name: 'Bench pet', categoryId: 7 })

/** Workloads (a), (b), (e) and (d), on the database with 1,000 pets. */
export function smallDataWorkloads(apiKey: string): Workload[] {
  const headers = bearer(apiKey)
  const data = '1,000 pets'
  return [
    {
      id: 'list-20',
      label: '(a) GET /v1/pets?limit=20',
      data,
      calls: everywhere({ method: 'GET', path: '/v1/pets?limit=20', headers }),
    },
    {
      id: 'list-100',
      label: '(b) GET /v1/pets?limit=100',
      data,
      calls: everywhere({ method: 'GET', path: '/v1/pets?limit=100', headers }),
    },
    {
      id: 'get',
      label: `(e) GET /v1/pets/${knownPetId}`,
      data,
      calls: everywhere({ method: 'GET', path: `/v1/pets/${knownPetId}`, headers }),
    },
    {
      id: 'create',
      label: '(d) POST /v1/pets (durable)',
      data,
      calls: everywhere({
        method: 'POST',
        path: '/v1/pets',
        headers: { ...headers, 'content-type': 'application/json' },
        body: newPetBody,
      }),
    },
  ]
}

/** Workload (c): the first page and a page 1,000,000 pets deep, by cursor per target. */
export function deepDataWorkloads(
  apiKey: string,
  deepCursors: Readonly<Record<TargetName, string>>,
): Workload[] {
  const headers = bearer(apiKey)
  const data = '1,000,100 pets'
  const deep = (target: TargetName): HttpCall => ({
    method: 'GET',
    path: listingPath('limit=20', deepCursors[target]),
    headers,
  })
  return [
    {
      id: 'first-page',
      label: '(c) first page, GET /v1/pets?limit=20',
      data,
      calls: everywhere({ method: 'GET', path: '/v1/pets?limit=20', headers }),
    },
    {
      id: 'deep-page',
      label: '(c) page 1,000,000 deep, GET /v1/pets?limit=20&cursor=…',
      data,
      calls: {
        service: deep('service'),
        wire: deep('wire'),
        'data-path': deep('data-path'),
        contract: deep('contract'),
      },
    },
  ]
}

/**
 * A cold walk over `pages` (from walkListing) of the listing `query`: the service gets its own
 * cursors, the data-path ceiling the plain ids they point after, the contract ceiling its own
 * cursors for those ids (written here with its fixed key).
 */
export function coldWalkWorkload(
  apiKey: string,
  walk: { id: WorkloadId; query: string; data: string },
  pages: readonly WalkedPage[],
): Workload {
  const headers = bearer(apiKey)
  const contractCursors = createContractCursors()
  const path = (cursor: string | undefined): HttpCall => ({
    method: 'GET',
    path: listingPath(walk.query, cursor),
    headers,
  })
  return {
    id: walk.id,
    label: `cold walk, GET /v1/pets?${walk.query}&cursor=… (${pages.length.toLocaleString('en-US')} pages in turn)`,
    data: walk.data,
    calls: everywhere(path(undefined)),
    rotation: {
      service: pages.map((page) => path(page.cursor)),
      'data-path': pages.map((page) => path(page.afterId === 0 ? undefined : String(page.afterId))),
      contract: pages.map((page) =>
        path(page.afterId === 0 ? undefined : contractCursors.encode(page.afterId)),
      ),
    },
  }
}
