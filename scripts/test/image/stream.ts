/**
 * A stream of requests across a SIGTERM: `lanes` clients, each on a keep-alive connection of its
 * own (one socket per lane, reused while the server keeps it open, as a load balancer's upstream
 * pool does), send requests back to back; once `before` of them have been answered, `signal` is
 * called, and each lane goes on until the server stops accepting connections. Every request is
 * sorted by what it got: an answer (any status), a refused connection (nothing was sent: the
 * listener is closed, which a client or a load balancer retries elsewhere), or a connection that
 * broke under it (reset, closed before the answer): what a clean shutdown never does.
 */
import { Agent, request } from 'node:http'

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
  method: string
  path: string
  headers: Record<string, string>
  body?: string
}

/** Sends `sent` on `agent`'s connection to `origin`; resolves with the answer's status. */
function send(origin: URL, agent: Agent, sent: StreamRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: origin.hostname,
        port: origin.port,
        agent,
        method: sent.method,
        path: sent.path,
        headers: sent.headers,
      },
      (response) => {
        response.resume()
        response.on('end', () => resolve(response.statusCode ?? 0))
        response.on('error', reject)
      },
    )
    outgoing.on('error', reject)
    outgoing.end(sent.body)
  })
}

export async function streamAcrossSignal(options: {
  origin: string
  requests: (lane: number, index: number) => StreamRequest
  lanes: number
  before: number
  signal: () => void
  /** Resolves when the server has exited: lanes stop then, whatever they got. */
  exited: Promise<unknown>
  /** Bounds the stream whatever happens. */
  timeoutMs: number
}): Promise<StreamFigures> {
  const origin = new URL(options.origin)
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
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      for (let index = 0; !over && Date.now() < deadline; index++) {
        const sentAfterSignal = signalledAt !== undefined
        try {
          const status = await send(origin, agent, options.requests(lane, index))
          if (sentAfterSignal) {
            figures.answeredAfter++
            figures.statusesAfter[status] = (figures.statusesAfter[status] ?? 0) + 1
          } else figures.answeredBefore++
          if (signalledAt !== undefined) figures.lastAnswerMs = Date.now() - signalledAt
          if (signalledAt === undefined && figures.answeredBefore >= options.before) {
            signalledAt = Date.now()
            options.signal()
          }
        } catch (error) {
          const { code, message } = error as { code?: string; message: string }
          if (code === 'ECONNREFUSED' && signalledAt !== undefined) {
            figures.refused++
            return
          }
          figures.broken.push(
            `lane ${lane} request ${index} (${sentAfterSignal ? 'after' : 'before'} the signal): ${code ?? ''} ${message}`,
          )
          return
        }
      }
    } finally {
      agent.destroy()
    }
  }
  await Promise.all(Array.from({ length: options.lanes }, (_, index) => lane(index)))
  return figures
}
