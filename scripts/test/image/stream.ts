/**
 * A stream of requests across a SIGTERM: `lanes` clients, each on its own keep-alive connection,
 * send requests back to back; once `before` of them have been answered, `signal` is called, and
 * each lane goes on until the server stops accepting connections. Every request is sorted by
 * what it got: an answer (any status), a refused connection (nothing was sent: the listener is
 * closed, which a client or a load balancer retries elsewhere), or a connection that broke
 * under it (reset, closed before the answer): what a clean shutdown never does.
 */

export interface StreamFigures {
  /** Answers to requests sent before the signal, and after it. */
  answeredBefore: number
  answeredAfter: number
  /** Statuses of the answers to requests sent after the signal. */
  statusesAfter: Record<number, number>
  refused: number
  /** Requests whose connection broke, with the error: must be none. */
  broken: string[]
  /** Milliseconds from the signal to the last answer. */
  lastAnswerMs: number
}

export interface StreamRequest {
  url: string
  init: RequestInit
}

export async function streamAcrossSignal(options: {
  requests: (lane: number, index: number) => StreamRequest
  lanes: number
  before: number
  signal: () => void
  /** Resolves when the server has exited: lanes stop then, whatever they got. */
  exited: Promise<unknown>
  /** Bounds the stream whatever happens. */
  timeoutMs: number
}): Promise<StreamFigures> {
  const figures: StreamFigures = {
    answeredBefore: 0,
    answeredAfter: 0,
    statusesAfter: {},
    refused: 0,
    broken: [],
    lastAnswerMs: 0,
  }
  let signalledAt: number | undefined
  let over = false
  void options.exited.then(() => {
    over = true
  })
  const deadline = Date.now() + options.timeoutMs
  const lane = async (lane: number) => {
    for (let index = 0; !over && Date.now() < deadline; index++) {
      const sentAfterSignal = signalledAt !== undefined
      const { url, init } = options.requests(lane, index)
      try {
        const response = await fetch(url, init)
        await response.arrayBuffer()
        if (sentAfterSignal) {
          figures.answeredAfter++
          figures.statusesAfter[response.status] = (figures.statusesAfter[response.status] ?? 0) + 1
        } else figures.answeredBefore++
        if (signalledAt !== undefined) figures.lastAnswerMs = Date.now() - signalledAt
        if (signalledAt === undefined && figures.answeredBefore >= options.before) {
          signalledAt = Date.now()
          options.signal()
        }
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause
        if (cause?.code === 'ECONNREFUSED' && signalledAt !== undefined) {
          figures.refused++
          return
        }
        figures.broken.push(
          `lane ${lane} request ${index} (${sentAfterSignal ? 'after' : 'before'} the signal): ${cause?.code ?? ''} ${cause?.message ?? String(error)}`,
        )
        return
      }
    }
  }
  await Promise.all(Array.from({ length: options.lanes }, (_, index) => lane(index)))
  return figures
}
