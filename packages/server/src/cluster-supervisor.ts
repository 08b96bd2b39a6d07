/**
 * The cluster primary's decisions (cluster.ts), as pure functions: each event (a worker forked,
 * listening or exited, a stop signal) takes the supervisor's state and returns the next state
 * and the actions to carry out (log, fork after a delay, stop the workers, exit). Nothing here
 * touches a process or a timer, so each rule is tested without forking.
 */

/** Deaths within this window make the next replacement wait longer. */
export const crashWindowMs = 60_000
const firstRestartDelayMs = 500
const maxRestartDelayMs = 30_000

/** The delay before replacing a worker, given how many died in the last minute (>= 1). */
export function restartDelayMs(recentDeaths: number): number {
  return Math.min(maxRestartDelayMs, firstRestartDelayMs * 2 ** Math.max(0, recentDeaths - 1))
}

export interface SupervisorState {
  /** How many workers the primary keeps running. */
  readonly workers: number
  /** Workers forked and not yet exited, by id. */
  readonly live: ReadonlySet<number>
  /** Workers listening, by id. */
  readonly listening: ReadonlySet<number>
  /** Whether the start (all workers listening) has been announced. */
  readonly announced: boolean
  /** The signal the primary is stopping on, once it is. */
  readonly stopping: NodeJS.Signals | undefined
  /** Whether the primary will exit 1: a worker could not start, or did not drain cleanly. */
  readonly failed: boolean
  /** When workers died unexpectedly within the last `crashWindowMs`, oldest first. */
  readonly deaths: readonly number[]
}

export type SupervisorAction =
  | {
      readonly type: 'log'
      readonly level: 'info' | 'error'
      readonly fields: Readonly<Record<string, unknown>>
      readonly message: string
    }
  /** Fork a replacement worker after `delayMs` (cancelled by a stop). */
  | { readonly type: 'fork'; readonly delayMs: number }
  /** Cancel pending forks and send `signal` to every live worker, then kill what is left late. */
  | { readonly type: 'stop'; readonly signal: NodeJS.Signals }
  | { readonly type: 'exit'; readonly code: 0 | 1 }

export interface Transition {
  readonly state: SupervisorState
  readonly actions: readonly SupervisorAction[]
}

export function initialState(workers: number): SupervisorState {
  return {
    workers,
    live: new Set(),
    listening: new Set(),
    announced: false,
    stopping: undefined,
    failed: false,
    deaths: [],
  }
}

const withId = (set: ReadonlySet<number>, id: number) => new Set([...set, id])
const withoutId = (set: ReadonlySet<number>, id: number) =>
  new Set([...set].filter((each) => each !== id))

export function onWorkerForked(state: SupervisorState, worker: number): SupervisorState {
  return { ...state, live: withId(state.live, worker) }
}

/**
 * A worker listens. The first time all of them do, the start is announced with the API's `url`;
 * a replacement that listens later is logged alone.
 */
export function onWorkerListening(state: SupervisorState, worker: number, url: string): Transition {
  const listening = withId(state.listening, worker)
  if (state.announced) {
    return {
      state: { ...state, listening },
      actions: [log('info', { worker }, `worker ${worker} listening`)],
    }
  }
  if (listening.size < state.workers) return { state: { ...state, listening }, actions: [] }
  return {
    state: { ...state, listening, announced: true },
    actions: [
      log('info', { workers: state.workers }, `${state.workers} workers listening on ${url}`),
    ],
  }
}

/**
 * A worker exited with `code` or by `signal`. While stopping, it counts towards the exit code
 * (a worker still starting may die of the signal itself: it had nothing to drain) and the last
 * one ends the primary. Before any worker has listened, it means none can start (port taken,
 * store or Redis unreachable; the worker said why on stderr): the primary stops, failed.
 * Otherwise it is replaced, after a delay that doubles with each death in the last minute.
 */
export function onWorkerExit(
  state: SupervisorState,
  code: number | null,
  signal: NodeJS.Signals | null,
  exit: { readonly worker: number; readonly now: number },
): Transition {
  const { worker, now } = exit
  const hadListened = state.listening.has(worker)
  const next: SupervisorState = {
    ...state,
    live: withoutId(state.live, worker),
    listening: withoutId(state.listening, worker),
  }
  const fields = { worker, code, signal }
  const how = signal ?? `code ${code}`
  if (state.stopping !== undefined) {
    const cleanExit = code === 0 || (signal === state.stopping && !hadListened)
    const stopped = { ...next, failed: next.failed || !cleanExit }
    return {
      state: stopped,
      actions: [
        log('info', fields, `worker ${worker} exited (${how})`),
        ...exitWhenNoneLive(stopped),
      ],
    }
  }
  if (!state.announced && !hadListened) {
    const failed = { ...next, failed: true }
    const stop = onStop(failed, 'SIGTERM')
    return {
      state: stop.state,
      actions: [
        log('error', fields, `worker ${worker} exited before listening; stopping`),
        ...stop.actions,
      ],
    }
  }
  const deaths = [...state.deaths.filter((at) => at >= now - crashWindowMs), now]
  const delayMs = restartDelayMs(deaths.length)
  return {
    state: { ...next, deaths },
    actions: [
      log(
        'error',
        { ...fields, restartInMs: delayMs },
        `worker ${worker} exited unexpectedly (${how}); replacing it in ${delayMs} ms`,
      ),
      { type: 'fork', delayMs },
    ],
  }
}

/** SIGTERM or SIGINT (or a worker that cannot start): every worker drains, then the primary exits. */
export function onStop(state: SupervisorState, signal: NodeJS.Signals): Transition {
  if (state.stopping !== undefined) return { state, actions: [] }
  const stopping = { ...state, stopping: signal }
  return {
    state: stopping,
    actions: [
      log('info', { signal }, 'shutting down: each worker drains its in-flight requests'),
      { type: 'stop', signal },
      ...exitWhenNoneLive(stopping),
    ],
  }
}

/**
 * The primary itself cannot serve (its metrics listener cannot bind): the workers drain and the
 * primary exits failed, as when no worker can start.
 */
export function onPrimaryFailure(state: SupervisorState, message: string): Transition {
  const stop = onStop({ ...state, failed: true }, 'SIGTERM')
  return { state: stop.state, actions: [log('error', {}, message), ...stop.actions] }
}

function exitWhenNoneLive(state: SupervisorState): SupervisorAction[] {
  return state.live.size === 0 ? [{ type: 'exit', code: state.failed ? 1 : 0 }] : []
}

function log(
  level: 'info' | 'error',
  fields: Record<string, unknown>,
  message: string,
): SupervisorAction {
  return { type: 'log', level, fields, message }
}
