/**
 * API keys: `psk_live_` and 48 hex digits (192 random bits). Only the sha256 of a key is
 * stored; with that much entropy a fast hash is safe (no dictionary to attack), and looking the
 * hash up through an index keeps the lookup constant-time with respect to the secret.
 */
import { hash, randomBytes } from 'node:crypto'
import { type Plan, perKeyPlanValues } from '@petstore/types'
import { planLimits } from '@petstore/types/spec'
import type { ApiKeyRecord, KeyStore } from '../store/store.js'

const prefix = 'psk_live_'
/** 192 random bits, written as lower-case hex. */
const hexDigits = 48
const keyShape = new RegExp(`^${prefix}[0-9a-f]{${hexDigits}}$`)
/** The length of every key this service issues. */
export const apiKeyLength = prefix.length + hexDigits

/**
 * sha256 of a raw key, hex: what the key store holds. Every /v1 request with a key pays it, so
 * it is the one-shot `hash`, which builds no `Hash` object.
 */
export function hashApiKey(rawKey: string): string {
  return hash('sha256', rawKey, 'hex')
}

/** True when `token` has the shape of a key this service issues (no store lookup needed otherwise). */
export function looksLikeApiKey(token: string): boolean {
  return keyShape.test(token)
}

export interface IssueKeyInput {
  plan: Plan
  name?: string | null
  /** Enterprise only (required there): requests per minute. */
  perMinute?: number
  /** Enterprise only (required there): requests per day. */
  perDay?: number
}

/** A misuse of key issuing (wrong plan numbers); its message is one line for the operator. */
export class KeyInputError extends Error {
  override name = 'KeyInputError'
}

/** The limits a key is held to, per minute and per day. */
export interface KeyLimits {
  perMinute: number
  perDay: number
}

/**
 * What a key is held to: its plan's numbers in the spec (read now, so a spec edit applies to
 * existing keys), or, for a per-key plan (enterprise), the key's own.
 *
 * @example
 * ```ts
 * keyLimits({ plan: 'free', perMinute: null, perDay: null }) // { perMinute: 60, perDay: 1000 }
 * ```
 */
export function keyLimits(key: Pick<ApiKeyRecord, 'plan' | 'perMinute' | 'perDay'>): KeyLimits {
  const fixed = planLimits[key.plan]
  const perMinute = fixed.perMinute ?? key.perMinute
  const perDay = fixed.perDay ?? key.perDay
  if (perMinute === null || perDay === null) {
    throw new Error(`a key of plan ${key.plan} has no limits of its own`)
  }
  return { perMinute, perDay }
}

/**
 * Creates a key for `plan` and returns the raw key (shown once, never stored) and its record.
 * Keys of a per-key plan (enterprise) need `perMinute` and `perDay`; other plans reject them,
 * since their numbers are the spec's (see keyLimits).
 *
 * @example
 * ```ts
 * const { rawKey } = await issueApiKey(store.keys, { plan: 'free', name: 'demo' })
 * ```
 */
export async function issueApiKey(
  keys: KeyStore,
  input: IssueKeyInput,
): Promise<{ rawKey: string; record: ApiKeyRecord }> {
  const limits = planLimits[input.plan]
  if (limits === undefined) {
    throw new KeyInputError(`plan must be one of ${Object.keys(planLimits).join(', ')}`)
  }
  const custom = input.perMinute !== undefined || input.perDay !== undefined
  let perMinute: number | null = null
  let perDay: number | null = null
  if (perKeyPlanValues.includes(input.plan)) {
    if (input.perMinute === undefined || input.perDay === undefined) {
      throw new KeyInputError(`plan ${input.plan} needs both --per-minute and --per-day`)
    }
    perMinute = positive('per-minute', input.perMinute)
    perDay = positive('per-day', input.perDay)
  } else if (custom) {
    throw new KeyInputError(
      `plan ${input.plan} has fixed limits (${limits.perMinute}/minute, ${limits.perDay}/day); --per-minute and --per-day are for ${perKeyPlanValues.join(', ')}`,
    )
  }
  const nameProblem = input.name == null ? undefined : keyNameProblem(input.name)
  if (nameProblem !== undefined) throw new KeyInputError(`name ${nameProblem}`)
  const rawKey = `${prefix}${randomBytes(hexDigits / 2).toString('hex')}`
  const record = await keys.create({
    hash: hashApiKey(rawKey),
    name: input.name ?? null,
    plan: input.plan,
    perMinute,
    perDay,
  })
  return { rawKey, record }
}

/**
 * What is wrong with a key's name, or undefined when it may be stored: 1 to 100 code points,
 * not all spaces, and no control characters (C0, DEL, C1: a newline would forge rows of `keys
 * list`, an ESC drive the terminal reading it) nor lone surrogates.
 *
 * @example
 * ```ts
 * keyNameProblem('ci') // undefined
 * keyNameProblem('a\nb') // 'must not hold control characters (U+000A)'
 * ```
 */
export function keyNameProblem(name: string): string | undefined {
  const length = [...name].length
  if (name.trim() === '' || length > 100) return 'must be 1 to 100 characters'
  const control = /\p{Cc}/u.exec(name)?.[0]
  if (control !== undefined) {
    const code = control.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')
    return `must not hold control characters (U+${code})`
  }
  if (!name.isWellFormed()) return 'must not hold lone surrogates'
  return undefined
}

function positive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new KeyInputError(`--${name} must be a positive integer`)
  }
  return value
}
