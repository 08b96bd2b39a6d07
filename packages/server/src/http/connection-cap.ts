/**
 * Caps on open connections. `PETSTORE_MAX_CONNECTIONS` bounds the process's: the API's and the
 * metrics listener's together share one budget, so that neither listener can spend the
 * descriptors the other needs. A cap on the open connections of one client address sits
 * beside it: without it, one address holding idle connections up to the global
 * cap (1,000 sockets that send nothing) had every other client refused until they timed out.
 * Over its cap, a connection of that address is closed at once, unanswered, as the global cap
 * does; other addresses are served. The trusted proxies of `PETSTORE_TRUST_PROXY` are exempt:
 * every client behind them shares their address.
 */
import type { Server } from 'node:http'
import { BlockList, isIPv4, type Socket } from 'node:net'
import type { Config } from '../config.js'

/** Open connections of the process, shared by its listeners. */
export interface ConnectionBudget {
  /** Connections open now, on every listener admitted. */
  readonly open: number
  /**
   * Counts the connections of `server` against the budget, and against `max` of its own when
   * given; one over either is closed at once, unanswered.
   */
  admit(server: Server, options?: { max?: number }): void
}

/**
 * @example
 * ```ts
 * const budget = createConnectionBudget(config.maxConnections)
 * budget.admit(app.server)
 * budget.admit(metricsServer, { max: 16 })
 * ```
 */
export function createConnectionBudget(max: number): ConnectionBudget {
  let open = 0
  return {
    get open() {
      return open
    },
    admit(server, options = {}) {
      const own = options.max ?? Number.POSITIVE_INFINITY
      let mine = 0
      // Before the HTTP server's own listener, so a refused socket is never parsed.
      server.prependListener('connection', (socket: Socket) => {
        if (open >= max || mine >= own) {
          socket.destroy()
          return
        }
        open++
        mine++
        socket.once('close', () => {
          open--
          mine--
        })
      })
    },
  }
}

/** IPv4 clients of a dual-stack listener show as `::ffff:a.b.c.d`: one address, one count. */
const unmapped = (address: string) => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '')

/**
 * Closes each connection beyond `max` open ones from the same address, unless `exempt(address)`.
 *
 * @example
 * ```ts
 * capConnectionsPerAddress(app.server, { max: 64, exempt: () => false })
 * ```
 */
export function capConnectionsPerAddress(
  server: Server,
  options: { max: number; exempt: (address: string) => boolean },
): void {
  const open = new Map<string, number>()
  // Before the HTTP server's own listener, so a refused socket is never parsed.
  server.prependListener('connection', (socket: Socket) => {
    const raw = socket.remoteAddress
    if (raw === undefined) return
    const address = unmapped(raw)
    if (options.exempt(address)) return
    const count = open.get(address) ?? 0
    if (count >= options.max) {
      socket.destroy()
      return
    }
    open.set(address, count + 1)
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1
      if (left === 0) open.delete(address)
      else open.set(address, left)
    })
  })
}

/**
 * Which peers are trusted proxies, by `PETSTORE_TRUST_PROXY`: none when off; every peer with a
 * hop count (the nearest hop is always a proxy then); else the listed addresses and CIDRs.
 */
export function trustedProxyPeers(trust: Config['trustProxy']): (address: string) => boolean {
  if (trust === false) return () => false
  if (typeof trust === 'number') return () => true
  const list = new BlockList()
  for (const entry of trust) {
    const [address = '', bits] = entry.split('/')
    const family = isIPv4(address) ? 'ipv4' : 'ipv6'
    if (bits === undefined) list.addAddress(address, family)
    else list.addSubnet(address, Number(bits), family)
  }
  return (address) => list.check(address, isIPv4(address) ? 'ipv4' : 'ipv6')
}
