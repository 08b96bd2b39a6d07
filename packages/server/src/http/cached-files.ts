/**
 * Static files read once: each file's bytes are kept in one Buffer that every answer shares
 * (the docs page is megabytes: read per request, each answer would hold its own copy), with what conditional and
 * compressed answers need: a strong `ETag` of the bytes, `Last-Modified`, and the gzip and
 * brotli encodings, each made once, on first demand. A file that changes on disk (a docs
 * rebuild) is read again at the next request; the cache holds one version of each file the
 * folder has, so its size is bounded by the folder's.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-13.1.2 (If-None-Match)
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-12.5.3 (Accept-Encoding)
 */
import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import { contentTypeOf } from './static-files.js'

export type ContentCoding = 'br' | 'gzip'

/** One representation of a file: its bytes and the headers that describe them. */
export interface Representation {
  body: Buffer
  etag: string
  /** `Content-Encoding`, when compressed. */
  encoding?: ContentCoding
}

export interface CachedFile {
  type: string
  /** HTTP-date of the file's modification time. */
  lastModified: string
  /** Whether the type is text that compresses (the answer then varies by `Accept-Encoding`). */
  compressible: boolean
  /** The file as sent for `coding`: compressed once, or the identity when that is not smaller. */
  representation(coding: ContentCoding | undefined): Promise<Representation>
}

const compress: Record<ContentCoding, (bytes: Buffer) => Promise<Buffer>> = {
  // Quality 9 of 11: within a few percent of the best, at a fraction of its time.
  br: (bytes) =>
    promisify(brotliCompress)(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 9,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  gzip: (bytes) => promisify(gzip)(bytes, { level: 9 }),
}

function isCompressible(type: string): boolean {
  return /^(text\/|application\/(json|yaml|atom\+xml|javascript)|image\/svg\+xml)/.test(type)
}

interface Entry {
  version: string
  file: Promise<CachedFile>
}

/**
 * Files read once per version (inode, size and modification time), by absolute path.
 *
 * @example
 * ```ts
 * const files = createFileCache()
 * const page = await files.get('/srv/docs/index.html') // undefined when no such file
 * const { body, etag, encoding } = await page.representation('br')
 * ```
 */
export function createFileCache(): { get(path: string): Promise<CachedFile | undefined> } {
  const entries = new Map<string, Entry>()
  return {
    async get(path) {
      const found = await stat(path).catch(() => undefined)
      if (found === undefined || !found.isFile()) {
        entries.delete(path)
        return undefined
      }
      const version = `${found.ino}:${found.size}:${found.mtimeMs}`
      const known = entries.get(path)
      if (known?.version === version) return known.file
      const file = load(path, found.mtime)
      entries.set(path, { version, file })
      // A file that vanished between stat and read is not kept.
      file.catch(() => {
        if (entries.get(path)?.file === file) entries.delete(path)
      })
      return file.catch(() => undefined)
    },
  }
}

async function load(path: string, modified: Date): Promise<CachedFile> {
  const body = await readFile(path)
  const type = contentTypeOf(path)
  const tag = createHash('sha256').update(body).digest('base64url').slice(0, 22)
  const identity: Representation = { body, etag: `"${tag}"` }
  const compressible = isCompressible(type)
  const encoded = new Map<ContentCoding, Promise<Representation>>()
  return {
    type,
    lastModified: modified.toUTCString(),
    compressible,
    representation(coding) {
      if (coding === undefined || !compressible) return Promise.resolve(identity)
      let made = encoded.get(coding)
      if (made === undefined) {
        made = compress[coding](body).then((bytes) =>
          bytes.length < body.length
            ? { body: bytes, etag: `"${tag}-${coding}"`, encoding: coding }
            : identity,
        )
        encoded.set(coding, made)
      }
      return made
    },
  }
}

/**
 * The coding to answer with, by the client's `Accept-Encoding`: brotli, else gzip, when
 * acceptable (a `q` above 0, or `*`); none otherwise.
 *
 * @example
 * ```ts
 * preferredCoding('gzip, deflate, br') // 'br'
 * preferredCoding('br;q=0, gzip') // 'gzip'
 * ```
 */
export function preferredCoding(acceptEncoding: string | undefined): ContentCoding | undefined {
  if (acceptEncoding === undefined || acceptEncoding === '') return undefined
  const weights = new Map<string, number>()
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase())
    let weight = 1
    for (const parameter of parameters) {
      const q = /^q=([01](?:\.\d{0,3})?)$/.exec(parameter)
      if (q !== null) weight = Number(q[1])
    }
    if (name !== '') weights.set(name, weight)
  }
  const weightOf = (name: string) => weights.get(name) ?? weights.get('*') ?? 0
  const br = weightOf('br')
  const gz = Math.max(weightOf('gzip'), weights.get('x-gzip') ?? 0)
  if (br > 0 && br >= gz) return 'br'
  return gz > 0 ? 'gzip' : undefined
}

/**
 * Whether a GET with these conditions may be answered `304 Not Modified`: `If-None-Match`
 * lists the representation's tag (weak comparison) or is `*`; without it, `If-Modified-Since`
 * is not before the file's modification time.
 */
export function notModified(
  headers: { 'if-none-match'?: string; 'if-modified-since'?: string },
  etag: string,
  lastModified: string,
): boolean {
  const match = headers['if-none-match']
  if (match !== undefined) {
    if (match.trim() === '*') return true
    return match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
  }
  const since = headers['if-modified-since']
  if (since === undefined) return false
  const sinceMs = Date.parse(since)
  return !Number.isNaN(sinceMs) && Date.parse(lastModified) <= sinceMs
}
