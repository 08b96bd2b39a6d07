/**
 * HTTP over a raw TCP socket, for requests Node's own client refuses to send (oversized or
 * contradictory headers, broken chunked bodies, unknown methods) or sends too well (stalls).
 */
import { connect, type Socket } from 'node:net'
import type { Reply } from '../helpers.js'

/**
 * Opens a connection to the server at `url` (e.g. `http://127.0.0.1:1234`). `allowHalfOpen`
 * keeps sending possible after the server has closed its side.
 */
export function open(url: string, options: { allowHalfOpen?: boolean } = {}): Promise<Socket> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), ...options }, () =>
      resolve(socket),
    )
    socket.once('error', reject)
  })
}

/** Everything the server sends until it closes the connection, parsed as one response. */
export function readAnswer(socket: Socket): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.once('error', reject)
    socket.once('close', () => {
      try {
        resolve(parseResponse(Buffer.concat(chunks).toString('utf8')))
      } catch (error) {
        reject(error)
      }
    })
  })
}

/** Sends `text` on a new connection and reads the answer up to the server's close. */
export async function rawRequest(url: string, text: string): Promise<Reply> {
  const socket = await open(url)
  const answer = readAnswer(socket)
  socket.write(text)
  return answer
}

export function parseResponse(text: string): Reply {
  const split = text.indexOf('\r\n\r\n')
  if (split < 0) throw new Error(`no complete response: ${JSON.stringify(text.slice(0, 200))}`)
  const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n')
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1])
  const headers = new Headers()
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim())
  }
  const bodyText = text.slice(split + 4)
  let body: unknown
  try {
    body = bodyText === '' ? undefined : JSON.parse(bodyText)
  } catch {
    body = undefined
  }
  return { status, headers, text: bodyText, body }
}
