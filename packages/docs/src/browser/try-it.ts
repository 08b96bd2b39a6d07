/**
 * A minimal try-it console, the feature Redoc CE lacks that readers ask for most. It sends a
 * real request with the reader's key to the server they pick (by default the service serving
 * the page, else the server the build named), and follows the operation in view. The code
 * samples follow the server and key typed here. It lives outside Redoc's React root, so
 * hydration and re-renders never touch it, and it loads nothing: the page stays self-contained.
 */
import { apiBaseUrl } from './api-base.js'
import { element } from './dom.js'
import { inlinePlainText } from './inline-markdown.js'
import { liveSamples } from './live-samples.js'
import { parameterField } from './parameter-field.js'
import {
  formatBody,
  InputError,
  operationForHash,
  planRequest,
  rememberEtag,
  resourceOf,
} from './request.js'
import { renderServerDescriptions } from './server-descriptions.js'
import { type TryItData, type TryItOperation, tryItDataId } from './types.js'

function readData(): TryItData | undefined {
  const script = document.getElementById(tryItDataId)
  return script?.textContent ? (JSON.parse(script.textContent) as TryItData) : undefined
}

function mount(data: TryItData): void {
  const operations = data.operations
  if (operations.length === 0) return

  const toggle = element(
    'button',
    {
      type: 'button',
      class: 'ps-tryit-toggle',
      'aria-expanded': 'false',
      'aria-controls': 'ps-tryit',
    },
    'Try it',
  )
  const select = element('select', { name: 'operation', 'aria-label': 'Operation' })
  for (const operation of operations) {
    select.append(
      element(
        'option',
        { value: operation.operationId },
        `${operation.method.toUpperCase()} ${operation.path}: ${operation.summary}${operation.deprecated ? ' (deprecated)' : ''}`,
      ),
    )
  }
  const notice = element('p', { class: 'ps-tryit-deprecated', role: 'note', hidden: true })
  const baseUrl = element('input', {
    name: 'baseUrl',
    type: 'url',
    list: 'ps-tryit-servers',
    value: data.apiBaseUrl,
    spellcheck: 'false',
  })
  const servers = element('datalist', { id: 'ps-tryit-servers' })
  for (const server of data.servers) {
    const label = server.description ? inlinePlainText(server.description) : server.url
    servers.append(element('option', { value: server.url }, label))
  }
  const apiKey = element('input', {
    name: 'apiKey',
    type: 'password',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'psk_…',
  })
  const fields = element('div', { class: 'ps-tryit-fields' })
  const body = element('textarea', { name: 'body', rows: '6', spellcheck: 'false' })
  const bodyTitle = element('span', {})
  const bodyLabel = element('label', {}, bodyTitle, body)
  const send = element('button', { type: 'submit', class: 'ps-tryit-send' }, 'Send request')
  const form = element(
    'form',
    { class: 'ps-tryit-form' },
    element('label', {}, element('span', {}, 'Operation'), select),
    notice,
    element('label', {}, element('span', {}, 'Server'), baseUrl, servers),
    element('label', {}, element('span', {}, 'API key'), apiKey),
    fields,
    bodyLabel,
    send,
  )
  const status = element('p', { class: 'ps-tryit-status', role: 'status' })
  const headers = element('pre', { class: 'ps-tryit-headers', hidden: true })
  const output = element('pre', { class: 'ps-tryit-body', hidden: true })
  const close = element(
    'button',
    { type: 'button', class: 'ps-tryit-close', 'aria-label': 'Close' },
    '×',
  )
  const panel = element(
    'aside',
    { id: 'ps-tryit', class: 'ps-tryit', 'aria-label': 'Try it console', hidden: true },
    element('header', {}, element('h2', {}, 'Try it'), close),
    element(
      'p',
      { class: 'ps-tryit-hint' },
      'Sends a real request. Your key stays in this page and goes only to the server below.',
    ),
    form,
    element(
      'section',
      { class: 'ps-tryit-output', 'aria-live': 'polite' },
      status,
      headers,
      output,
    ),
  )

  let current: TryItOperation = operations[0] as TryItOperation
  /** The last `ETag` seen for each resource, by its URL (`rememberEtag`). */
  const etags = new Map<string, string>()
  const fieldContext = {
    lastEtag(): string | undefined {
      const resource = resourceOf(current, values(), document.baseURI)
      return resource === undefined ? undefined : etags.get(resource)
    },
  }

  function show(operation: TryItOperation): void {
    current = operation
    select.value = operation.operationId
    toggle.textContent = `Try it: ${operation.summary}`
    notice.hidden = !operation.deprecated
    notice.textContent = operation.deprecated
      ? `Deprecated${operation.sunset ? `: removed on ${operation.sunset}` : ''}.`
      : ''
    fields.replaceChildren(
      ...operation.parameters.map((parameter) => parameterField(parameter, fieldContext)),
    )
    bodyLabel.hidden = operation.bodyMediaType === undefined
    bodyTitle.textContent = `Body (${operation.bodyMediaType ?? ''})`
    body.value = operation.body ?? ''
  }

  function values(): Parameters<typeof planRequest>[1] {
    const parameters: Record<string, string> = {}
    for (const input of fields.querySelectorAll<HTMLInputElement>('input[data-param]')) {
      parameters[input.dataset.param as string] = input.value
    }
    return { baseUrl: baseUrl.value, apiKey: apiKey.value, parameters, body: body.value }
  }

  async function submit(event: SubmitEvent): Promise<void> {
    event.preventDefault()
    headers.hidden = true
    output.hidden = true
    let planned: ReturnType<typeof planRequest>
    try {
      planned = planRequest(current, values())
    } catch (error) {
      if (!(error instanceof InputError)) throw error
      status.textContent = error.message
      status.dataset.outcome = 'error'
      return
    }
    status.textContent = `${planned.method} ${planned.url} …`
    status.dataset.outcome = 'pending'
    send.disabled = true
    try {
      const init: RequestInit = { method: planned.method, headers: planned.headers }
      if (planned.body !== undefined) init.body = planned.body
      const response = await fetch(planned.url, init)
      rememberEtag(etags, planned.method, response)
      const text = await response.text()
      status.textContent = `${response.status} ${response.statusText}`.trim()
      status.dataset.outcome = response.ok ? 'ok' : 'error'
      headers.textContent = [...response.headers]
        .map(([name, value]) => `${name}: ${value}`)
        .join('\n')
      headers.hidden = false
      output.textContent = formatBody(text)
      output.hidden = text === ''
    } catch (error) {
      status.textContent = `The request failed: ${(error as Error).message}. Is the server running, and does it allow this origin (CORS)?`
      status.dataset.outcome = 'error'
    } finally {
      send.disabled = false
    }
  }

  function setOpen(open: boolean): void {
    panel.hidden = !open
    toggle.setAttribute('aria-expanded', String(open))
    document.documentElement.classList.toggle('ps-tryit-open', open)
    if (open) (apiKey.value ? send : apiKey).focus()
  }

  function followHash(): void {
    const operation = operationForHash(operations, location.hash)
    if (operation && operation !== current) show(operation)
  }

  select.addEventListener('change', () => {
    const picked = operations.find((operation) => operation.operationId === select.value)
    // Picking the operation already shown keeps what the reader typed.
    if (picked && picked !== current) show(picked)
  })
  form.addEventListener('submit', (event) => void submit(event))
  toggle.addEventListener('click', () => setOpen(panel.hidden))
  close.addEventListener('click', () => setOpen(false))
  panel.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      setOpen(false)
      toggle.focus()
    }
  })
  window.addEventListener('hashchange', followHash)

  const redoc = document.getElementById('redoc')
  const samples = redoc ? liveSamples(redoc, data.apiBaseUrl) : undefined
  if (redoc) {
    renderServerDescriptions(
      redoc,
      data.servers.flatMap((server) => server.description ?? []),
    )
  }
  const showSamples = () => samples?.update(baseUrl.value.trim().replace(/\/+$/, ''), apiKey.value)
  baseUrl.addEventListener('input', showSamples)
  apiKey.addEventListener('input', showSamples)
  const url = apiBaseUrl(data.apiBaseUrl)
  baseUrl.value = url
  document.documentElement.dataset.psApiBaseUrl = url
  showSamples()

  show(operations[0] as TryItOperation)
  followHash()
  document.body.append(toggle, panel)
}

const data = readData()
if (data) mount(data)
