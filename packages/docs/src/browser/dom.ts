/** Builds DOM nodes without innerHTML, so that text from the spec or a response is never markup. */

export type Attributes = Record<string, string | boolean>

/** An element with attributes (`true` for a bare attribute, `false` to leave it out) and children. */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false) continue
    node.setAttribute(name, value === true ? '' : value)
  }
  node.append(...children)
  return node
}
