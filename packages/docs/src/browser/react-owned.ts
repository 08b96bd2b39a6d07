/**
 * What the page may learn from React about a node Redoc rendered. React tags its DOM nodes with
 * their fiber and props; changing server-rendered nodes before React has claimed them would make
 * it throw the page away and render it again.
 */

/** Whether React has hydrated or rendered `node`. */
export function ownedByReact(node: Element): boolean {
  return Object.keys(node).some((key) => key.startsWith('__reactFiber$'))
}

/**
 * The text of an element whose only child React knows is a string. React keeps no node for
 * such a text (it sets the element's text content), so replacing the element's children is safe:
 * a later render with the same text changes nothing, a different text replaces what is there.
 */
export function reactTextChild(node: Element): string | undefined {
  const key = Object.keys(node).find((name) => name.startsWith('__reactProps$'))
  const children = key
    ? (node as unknown as Record<string, { children?: unknown }>)[key]?.children
    : undefined
  return typeof children === 'string' ? children : undefined
}
