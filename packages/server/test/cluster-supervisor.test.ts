import { describe, expect, it } from 'vitest'
import {
  crashWindowMs,
  initialState,
  onStop,
  onWorkerExit,
  onWorkerForked,
  onWorkerListening,
  restartDelayMs,
  type SupervisorAction,
  type SupervisorState,
} from '../src/cluster-supervisor.js'

const url = 'http://127.0.0.1:3000/v1'

/** Two workers (ids 1 and 2) forked, and listening when `listening`. */
function twoWorkers({ listening }: { listening: boolean }): SupervisorState {
  let state = onWorkerForked(onWorkerForked(initialState(2), 1), 2)
  if (listening) {
    state = onWorkerListening(state, 1, url).state
    state = onWorkerListening(state, 2, url).state
  }
  return state
}

const kinds = (actions: readonly SupervisorAction[]) =>
  actions.map((action) => (action.type === 'log' ? `${action.level}: ${action.message}` : action))

describe('onWorkerListening', () => {
  it('announces once, when every worker listens, then logs each replacement alone', () => {
    const one = onWorkerListening(onWorkerForked(initialState(2), 1), 1, url)
    expect(one.actions).toEqual([])
    const both = onWorkerListening(onWorkerForked(one.state, 2), 2, url)
    expect(kinds(both.actions)).toEqual([`info: 2 workers listening on ${url}`])
    expect(both.state.announced).toBe(true)
    const replacement = onWorkerListening(both.state, 3, url)
    expect(kinds(replacement.actions)).toEqual(['info: worker 3 listening'])
  })
})

describe('onWorkerExit', () => {
  it('replaces a worker that dies after the start, waiting longer for each death in a minute', () => {
    let state = twoWorkers({ listening: true })
    const delays: number[] = []
    for (let death = 0; death < 4; death++) {
      const exit = onWorkerExit(state, null, 'SIGKILL', { worker: 1, now: 1000 * death })
      expect(exit.actions.at(-1)).toMatchObject({ type: 'fork' })
      delays.push((exit.actions.at(-1) as { delayMs: number }).delayMs)
      state = onWorkerListening(onWorkerForked(exit.state, 1), 1, url).state
    }
    expect(delays).toEqual([1, 2, 3, 4].map(restartDelayMs))
    // A minute without deaths forgets them.
    const later = onWorkerExit(state, 1, null, { worker: 1, now: 3000 + crashWindowMs + 1 })
    expect(later.actions.at(-1)).toEqual({ type: 'fork', delayMs: restartDelayMs(1) })
    expect(later.state.failed).toBe(false)
    expect(later.state.live).toEqual(new Set([2]))
  })

  it('stops everything, failed, when a worker exits before any has listened', () => {
    const exit = onWorkerExit(twoWorkers({ listening: false }), 1, null, { worker: 1, now: 0 })
    expect(kinds(exit.actions)).toEqual([
      'error: worker 1 exited before listening; stopping',
      'info: shutting down: each worker drains its in-flight requests',
      { type: 'stop', signal: 'SIGTERM' },
    ])
    expect(exit.state).toMatchObject({ stopping: 'SIGTERM', failed: true })
    const last = onWorkerExit(exit.state, null, 'SIGTERM', { worker: 2, now: 0 })
    expect(last.actions.at(-1)).toEqual({ type: 'exit', code: 1 })
  })

  it('exits 0 once every worker drained and exited 0 after a stop signal', () => {
    const stopping = onStop(twoWorkers({ listening: true }), 'SIGINT')
    expect(stopping.actions).toContainEqual({ type: 'stop', signal: 'SIGINT' })
    const first = onWorkerExit(stopping.state, 0, null, { worker: 1, now: 0 })
    expect(first.actions.map((action) => action.type)).toEqual(['log'])
    const last = onWorkerExit(first.state, 0, null, { worker: 2, now: 0 })
    expect(last.actions.at(-1)).toEqual({ type: 'exit', code: 0 })
  })

  it('exits 1 when a listening worker does not exit 0 while stopping', () => {
    const stopping = onStop(twoWorkers({ listening: true }), 'SIGTERM')
    const first = onWorkerExit(stopping.state, null, 'SIGTERM', { worker: 1, now: 0 })
    const last = onWorkerExit(first.state, 0, null, { worker: 2, now: 0 })
    expect(last.actions.at(-1)).toEqual({ type: 'exit', code: 1 })
  })

  it('accepts the stop signal as the exit of a worker still starting: it had nothing to drain', () => {
    let state = onWorkerListening(twoWorkers({ listening: false }), 1, url).state
    state = onStop(state, 'SIGTERM').state
    state = onWorkerExit(state, 0, null, { worker: 1, now: 0 }).state
    const last = onWorkerExit(state, null, 'SIGTERM', { worker: 2, now: 0 })
    expect(last.actions.at(-1)).toEqual({ type: 'exit', code: 0 })
  })

  it('never replaces a worker once stopping', () => {
    const stopping = onStop(twoWorkers({ listening: true }), 'SIGTERM')
    const exit = onWorkerExit(stopping.state, 1, null, { worker: 1, now: 0 })
    expect(exit.actions.some((action) => action.type === 'fork')).toBe(false)
  })
})

describe('onStop', () => {
  it('acts on the first signal only, and exits at once with no worker live', () => {
    const first = onStop(twoWorkers({ listening: true }), 'SIGTERM')
    expect(onStop(first.state, 'SIGINT').actions).toEqual([])
    expect(onStop(initialState(2), 'SIGTERM').actions.at(-1)).toEqual({ type: 'exit', code: 0 })
  })
})
