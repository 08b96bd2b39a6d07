/**
 * One classified difference between the released spec and the edited one, seen from a client
 * of the released version: `breaking` when a client written against the baseline can fail.
 */
export interface Change {
  kind: 'breaking' | 'non-breaking'
  /** Stable rule name, e.g. `property-became-required`, as the check that reports it writes it. */
  rule: string
  /** Where, e.g. `POST /pets request body application/json: status`. */
  location: string
  message: string
  /**
   * Why a change that would break is reported but needs no major: the operation's
   * `x-stability-level` (`draft`, `alpha`) promises nothing yet (`stability.ts`), an error code
   * (`responses.ts`), a header only the browser reads (`response-headers.ts`).
   */
  allowedBy?: string
  /**
   * The oasdiff rule id, where the check knows more than the location shows (a whole path gone,
   * a property that was required); otherwise `oasdiff-ids.ts` derives it.
   */
  oasdiff?: string
}

/** Which way data flows: a client sends requests and reads responses. */
export type Direction = 'request' | 'response'

/** What an edit does to the set of values a schema allows. */
export type Effect = 'narrows' | 'widens' | 'changes'

export const breaking = (rule: string, location: string, message: string): Change => ({
  kind: 'breaking',
  rule,
  location,
  message,
})

export const nonBreaking = (rule: string, location: string, message: string): Change => ({
  kind: 'non-breaking',
  rule,
  location,
  message,
})

/**
 * A request may accept more values and a response may promise fewer. The other way round breaks
 * a client: a request that accepts less rejects what clients already send, and a response that
 * may carry more (a new enum value, a longer string, another type) reaches clients that handle
 * only the documented values, e.g. an exhaustive `switch` over the generated union.
 */
export function kindOf(direction: Direction, effect: Effect): Change['kind'] {
  if (effect === 'changes') return 'breaking'
  if (direction === 'request') return effect === 'narrows' ? 'breaking' : 'non-breaking'
  return effect === 'widens' ? 'breaking' : 'non-breaking'
}

export const valueSetChange = (
  direction: Direction,
  effect: Effect,
  rule: string,
  location: string,
  message: string,
): Change => ({ kind: kindOf(direction, effect), rule, location, message })

/** The change with the oasdiff id its check knows it by. */
export const withOasdiffId = (change: Change, id: string | undefined): Change =>
  id === undefined ? change : { ...change, oasdiff: id }
