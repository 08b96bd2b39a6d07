/**
 * Reads a V8 `.cpuprofile` (what `node --cpu-prof` writes) into the hot spots a person acts on:
 * self time per function, and per package or area of the service.
 * @see https://chromedevtools.github.io/devtools-protocol/tot/Profiler/#type-Profile
 */
import { readFileSync } from 'node:fs'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  hitCount?: number
}

interface CpuProfile {
  nodes: ProfileNode[]
  samples?: number[]
  timeDeltas?: number[]
  startTime: number
  endTime: number
}

export interface HotSpot {
  name: string
  /** Share of the busy (non-idle) samples, 0..1. */
  share: number
}

export interface ProfileSummary {
  functions: HotSpot[]
  areas: HotSpot[]
  /** Share of all samples that were idle (waiting on I/O, or not under load at all). */
  idle: number
}

/** Where a function's code lives: a dependency, a folder of the service, node, or V8. */
export function areaOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)'
  const dependency = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(
    url,
  )
  if (dependency !== null) return dependency[1] as string
  const service = /packages\/([^/]+)\/dist\/(.*)\/[^/]+$/.exec(url)
  if (service !== null) return `${service[1]}/${service[2]}`
  const top = /packages\/([^/]+)\/dist\/[^/]+$/.exec(url)
  if (top !== null) return `${top[1]}/`
  if (url.startsWith('node:')) return url
  return url
}

export function summarizeProfile(path: string, top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile
  const hits = new Map<number, number>()
  for (const sample of profile.samples ?? []) hits.set(sample, (hits.get(sample) ?? 0) + 1)
  const byFunction = new Map<string, number>()
  const byArea = new Map<string, number>()
  let idle = 0
  let busy = 0
  for (const node of profile.nodes) {
    const count = hits.get(node.id) ?? node.hitCount ?? 0
    if (count === 0) continue
    const { functionName, url, lineNumber } = node.callFrame
    if (functionName === '(idle)') {
      idle += count
      continue
    }
    busy += count
    const file = url.replace(/^.*\/(node_modules|packages)\//, '$1/')
    const name = `${functionName || '(anonymous)'} ${file}${url === '' ? '' : `:${lineNumber + 1}`}`
    byFunction.set(name, (byFunction.get(name) ?? 0) + count)
    const area = areaOf(url, functionName)
    byArea.set(area, (byArea.get(area) ?? 0) + count)
  }
  const rank = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, count]) => ({ name, share: busy === 0 ? 0 : count / busy }))
  const total = busy + idle
  return { functions: rank(byFunction), areas: rank(byArea), idle: total === 0 ? 0 : idle / total }
}

export function renderProfile(title: string, summary: ProfileSummary): string {
  const percent = (share: number) => `${(share * 100).toFixed(1).padStart(5)}%`
  return [
    `${title} (idle ${percent(summary.idle).trim()} of the run; shares below are of the busy time)`,
    '  by area:',
    ...summary.areas.map((spot) => `    ${percent(spot.share)}  ${spot.name}`),
    '  by function (self time):',
    ...summary.functions.map((spot) => `    ${percent(spot.share)}  ${spot.name}`),
  ].join('\n')
}
