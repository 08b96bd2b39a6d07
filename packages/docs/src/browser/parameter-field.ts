/** One parameter's input in the try-it console. */
import { element } from './dom.js'
import type { TryItParameter } from './types.js'

/** What a field may ask of the console. */
export interface FieldContext {
  /** The `ETag` the console last saw for the resource the request would address, if any. */
  lastEtag(): string | undefined
}

/**
 * A labelled input for `parameter`: its example as the placeholder (prefilled for a path
 * parameter, which is always needed), its enum as suggestions, for `Idempotency-Key` a button
 * that makes a fresh key, since reusing one replays the first response, and for `If-Match` one
 * that fills in the `ETag` last seen for the resource, since a tag is the server's to make.
 */
export function parameterField(parameter: TryItParameter, context: FieldContext): HTMLLabelElement {
  const enumId = `ps-tryit-enum-${parameter.name}`
  const input = element('input', {
    name: `param:${parameter.name}`,
    'data-param': parameter.name,
    placeholder: parameter.example ?? '',
    spellcheck: 'false',
    required: parameter.required,
    list: parameter.enum ? enumId : false,
    value: parameter.in === 'path' ? (parameter.example ?? '') : '',
  })
  const label = element(
    'label',
    { title: parameter.description ?? '' },
    element(
      'span',
      {},
      `${parameter.name} `,
      element('small', {}, `${parameter.in}${parameter.required ? ', required' : ''}`),
    ),
    input,
  )
  if (parameter.enum) {
    const options = element('datalist', { id: enumId })
    for (const value of parameter.enum) options.append(element('option', { value }))
    label.append(options)
  }
  if (/^idempotency-key$/i.test(parameter.name)) {
    const generate = element('button', { type: 'button', class: 'ps-tryit-generate' }, 'New key')
    generate.addEventListener('click', () => {
      input.value = crypto.randomUUID()
    })
    label.append(generate)
  }
  if (/^if-match$/i.test(parameter.name)) {
    const fill = element('button', { type: 'button', class: 'ps-tryit-generate' }, 'Last ETag')
    fill.addEventListener('click', () => {
      const etag = context.lastEtag()
      input.value = etag ?? ''
      input.placeholder = etag ? '' : 'no ETag seen for this resource yet: read or write it first'
    })
    label.append(fill)
  }
  return label
}
