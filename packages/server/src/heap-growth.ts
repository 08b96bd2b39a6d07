/**
 * How far V8 lets the old generation grow past what the last full collection kept, in a process
 * that serves (server.ts). The start script gives the young generation 16 MB per semi-space, so
 * that a request's garbage dies young, in far fewer scavenges than at V8's 4 MB. Left to V8's
 * own growth factor, the old generation would fill with dead objects before its first
 * mark-compact, and the process peak well above what it does with the small young generation.
 * Growing by 30% of what survives keeps the peak down: the live set is small, so each
 * mark-compact is short.
 *
 * Set here because `NODE_OPTIONS` refuses this flag: `petstore serve` and cluster workers get it
 * too. A `--heap-growing-percent` given to node itself wins.
 */
import { setFlagsFromString } from 'node:v8'

const flag = '--heap-growing-percent'
const percent = 30

export function limitOldGenerationGrowth(): void {
  // V8 reads `_` and `-` in flag names alike.
  const given = process.execArgv.map((arg) => arg.split('=')[0]?.replaceAll('_', '-'))
  if (given.includes(flag)) return
  setFlagsFromString(`${flag}=${percent}`)
}
