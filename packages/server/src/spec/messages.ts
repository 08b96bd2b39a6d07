/**
 * Turns a validation failure into the Error `message`: it names the field or parameter and
 * says what the spec requires of it.
 */
import type { ErrorObject } from 'ajv'
import { echoed } from '../errors.js'

/** `body.name` from subject `body` and instance path `/name`. */
export function describeLocation(subject: string, instancePath: string): string {
  if (instancePath === '') return subject
  const segments = instancePath
    .split('/')
    .slice(1)
    .map((segment) => echoed(segment.replaceAll('~1', '/').replaceAll('~0', '~')))
  return `${subject}.${segments.join('.')}`
}

/** One sentence for the first Ajv error, e.g. `body.status must be one of available, pending, sold`. */
export function describeAjvError(subject: string, error: ErrorObject): string {
  const where = describeLocation(subject, error.instancePath)
  const params = error.params as Record<string, unknown>
  const parent = (error.parentSchema ?? {}) as Record<string, unknown>
  switch (error.keyword) {
    case 'required':
      return `${where} must have required property ${String(params.missingProperty)}`
    case 'additionalProperties':
      return `${where} must not have property ${echoed(String(params.additionalProperty))}`
    case 'type':
      return `${where} must be ${article(String(params.type))} ${String(params.type)}`
    case 'enum':
      return `${where} must be one of ${(params.allowedValues as unknown[]).join(', ')}`
    case 'minLength':
    case 'maxLength':
      return `${where} must be ${range(parent.minLength, parent.maxLength)} characters long`
    case 'minimum':
    case 'maximum':
      return `${where} must be ${article(String(parent.type ?? 'number'))} ${String(parent.type ?? 'number')} ${bounds(parent.minimum, parent.maximum)}`
    case 'pattern':
      return `${where} is not valid${descriptionOf(parent)}`
    default:
      return `${where} ${error.message ?? 'is not valid'}`
  }
}

/** `: <first sentence of the schema's description>`, or nothing. */
export function descriptionOf(schema: Record<string, unknown>): string {
  if (typeof schema.description !== 'string') return ''
  const text = schema.description.replace(/\s+/g, ' ').trim()
  const cut = text.match(/^(.*?[.])(\s|$)/)
  return `: ${(cut?.[1] ?? text).replace(/[.]$/, '')}`
}

function range(min: unknown, max: unknown): string {
  if (min !== undefined && max !== undefined) return `${String(min)} to ${String(max)}`
  if (min !== undefined) return `at least ${String(min)}`
  return `at most ${String(max)}`
}

/** `from 1 to 100`, `of at least 0`, `of at most 9`. */
function bounds(min: unknown, max: unknown): string {
  return `${min !== undefined && max !== undefined ? 'from' : 'of'} ${range(min, max)}`
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a'
}
