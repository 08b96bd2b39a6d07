/** One parameter's input in the try-it console. */
import { element } from './dom.js'
import type { TryItParameter } from './types.js'

/**
 * A labelled input for `parameter`: its example as the placeholder (prefilled for a path
 * parameter, which is always needed), its enum as suggestions, and for `Idempotency-Key` a
 * button that makes a fresh key, since reusing one replays the first response.
 */
export function parameterField(parameter: TryItParameter): HTMLLabelElement {
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
  return label
}
