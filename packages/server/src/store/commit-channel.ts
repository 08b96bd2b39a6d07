/**
 * The stores' group commits, published on `node:diagnostics_channel` for whatever measures the
 * write path in the process (an APM agent, a profiler, a module loaded with `node --import`):
 * each commit, how many writes it made durable, when its transaction began and when it was
 * durable. Without a subscriber a commit reads one flag and takes no clock; the server itself
 * never subscribes.
 * @see https://nodejs.org/api/diagnostics_channel.html
 */
import { channel } from 'node:diagnostics_channel'

/** What a subscriber of `commitChannelName` receives, once per commit that succeeded. */
export interface CommitMessage {
  /** The store, as OpenTelemetry's `db.system.name` names it. */
  system: 'sqlite' | 'postgresql'
  /** Writes the commit made durable (a group of creates, or any writes of one event-loop turn). */
  writes: number
  /** When the group's transaction began, `performance.now()` of this process (milliseconds). */
  startedAt: number
  /** When the commit was durable (synced to disk), on the same clock. */
  durableAt: number
}

/**
 * The channel's name; each message is a `CommitMessage`.
 *
 * @example
 * ```ts
 * import { subscribe } from 'node:diagnostics_channel'
 * subscribe(commitChannelName, (message) => {
 *   const { writes, startedAt, durableAt } = message as CommitMessage
 *   console.log(`${writes} writes durable in ${durableAt - startedAt} ms`)
 * })
 * ```
 */
export const commitChannelName = 'petstore:store:commit'

const commits = channel(commitChannelName)

/** The start of a commit when someone listens (`performance.now()`), else undefined. */
export function commitStarted(): number | undefined {
  return commits.hasSubscribers ? performance.now() : undefined
}

/** Publishes a commit of `writes` begun at `startedAt` (commitStarted) that is durable now. */
export function commitDurable(
  system: CommitMessage['system'],
  writes: number,
  startedAt: number | undefined,
): void {
  if (startedAt === undefined || !commits.hasSubscribers) return
  const message: CommitMessage = { system, writes, startedAt, durableAt: performance.now() }
  commits.publish(message)
}
