/**
 * How each configuration variable's text becomes a value. A parser also carries examples of
 * what it accepts and refuses, so the config tests are derived from the table (config.ts)
 * rather than written beside it. Every refusal is a `ConfigError` whose message is one line
 * naming the variable.
 */
import { isIPv6 } from 'node:net'
import { isAbsolute, resolve } from 'node:path'

/** A configuration value that cannot be used; its message is one line for stderr. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

export interface Parser<T> {
  /** The value of `raw` (trimmed, never empty), or a `ConfigError` naming `name`. */
  parse(raw: string, name: string): T
  /** Texts it must accept, with the value each gives (checked by the config tests). */
  readonly examples: readonly (readonly [string, T])[]
  /** Texts it must refuse (checked by the config tests). */
  readonly refuses: readonly string[]
}

/** A whole number from `min` to `max`, digits only. */
export function integer(min: number, max: number): Parser<number> {
  return {
    parse(raw, name) {
      const value = /^[0-9]+$/.test(raw) ? Number(raw) : Number.NaN
      if (!Number.isSafeInteger(value) || value < min || value > max) {
        throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`)
      }
      return value
    },
    examples: [
      [String(min), min],
      [String(max), max],
    ],
    refuses: ['ten', '3.5', '-1', `${max + 1}`, ...(min > 0 ? [String(min - 1)] : [])],
  }
}

/** One of `values`, exactly (or in any case when `caseless`: the value is then lower-cased). */
export function oneOf<const T extends string>(
  values: readonly T[],
  { caseless = false } = {},
): Parser<T> {
  return {
    parse(raw, name) {
      const value = caseless ? raw.toLowerCase() : raw
      if (!values.includes(value as T)) {
        throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}"`)
      }
      return value as T
    },
    examples: values.map((value) => [caseless ? value.toUpperCase() : value, value] as const),
    refuses: ['none-of-these'],
  }
}

/** A file path; a relative one is resolved against the process's cwd. */
export const filePath: Parser<string> = {
  parse: (raw) => (isAbsolute(raw) ? raw : resolve(process.cwd(), raw)),
  examples: [
    ['/srv/x', '/srv/x'],
    ['relative/x', resolve(process.cwd(), 'relative/x')],
  ],
  refuses: [],
}

/** A URL with one of `protocols` (e.g. `postgres:`), kept as written. */
export function url(protocols: readonly string[]): Parser<string> {
  const schemes = protocols.map((protocol) => `${protocol}//`).join(' or ')
  return {
    parse(raw, name) {
      let parsed: URL
      try {
        parsed = new URL(raw)
      } catch {
        throw new ConfigError(`${name} must be a URL (${schemes}…)`)
      }
      if (!protocols.includes(parsed.protocol)) {
        throw new ConfigError(`${name} must start with ${schemes}, got ${parsed.protocol}//`)
      }
      return raw
    },
    examples: protocols.map((protocol) => [`${protocol}//u@h/x`, `${protocol}//u@h/x`] as const),
    refuses: ['not a url', 'ftp://h/x'],
  }
}

/** `*`, or a comma list of exact http(s) origins. */
export const origins: Parser<'*' | readonly string[]> = {
  parse(raw, name) {
    if (raw === '*') return '*'
    return raw.split(',').map((entry) => {
      const origin = entry.trim()
      let parsed: URL | undefined
      try {
        parsed = new URL(origin)
      } catch {
        parsed = undefined
      }
      if (parsed === undefined || parsed.origin !== origin || !/^https?:$/.test(parsed.protocol)) {
        throw new ConfigError(
          `${name} must be * or a comma list of origins like https://app.example, got "${origin}"`,
        )
      }
      return origin
    })
  },
  examples: [
    ['*', '*'],
    ['https://a.example, http://localhost:5173', ['https://a.example', 'http://localhost:5173']],
  ],
  refuses: ['https://a.example/path', 'ftp://a.example'],
}

const ipv4 = /^(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])){3}$/
const hops = integer(1, 100)

/** `off`/`false`/`0`, a hop count (`1`: the nearest proxy), or a comma list of addresses and CIDRs. */
export const trustProxy: Parser<false | number | readonly string[]> = {
  parse(raw, name) {
    if (/^(off|false|0)$/i.test(raw)) return false
    if (/^[0-9]+$/.test(raw)) return hops.parse(raw, name)
    return raw.split(',').map((entry) => {
      const value = entry.trim()
      const [address = '', bits, ...rest] = value.split('/')
      const v4 = ipv4.test(address)
      const v6 = !v4 && isIPv6(address)
      const maxBits = v4 ? 32 : 128
      const bitsOk = bits === undefined || (/^[0-9]{1,3}$/.test(bits) && Number(bits) <= maxBits)
      if (!(v4 || v6) || !bitsOk || rest.length > 0) {
        throw new ConfigError(
          `${name} must be off, a hop count, or a comma list of addresses/CIDRs like 10.0.0.0/8, got "${value}"`,
        )
      }
      return value
    })
  },
  examples: [
    ['off', false],
    ['false', false],
    ['0', false],
    ['2', 2],
    ['10.0.0.0/8, 192.168.1.1, ::1, fd00::/8', ['10.0.0.0/8', '192.168.1.1', '::1', 'fd00::/8']],
  ],
  refuses: ['yes', '10.0.0.0/33', '300.1.1.1', '101', '10.0.0.1/8/1'],
}

/** Any text of at least `minLength` characters. */
export function secret(minLength: number): Parser<string> {
  return {
    parse(raw, name) {
      if (raw.length < minLength) {
        throw new ConfigError(`${name} must be at least ${minLength} characters long`)
      }
      return raw
    },
    examples: [['s'.repeat(minLength), 's'.repeat(minLength)]],
    refuses: ['s'.repeat(minLength - 1)],
  }
}

/** Any text, kept as written (trimmed). */
export const text: Parser<string> = {
  parse: (raw) => raw,
  examples: [['0.0.0.0', '0.0.0.0']],
  refuses: [],
}
