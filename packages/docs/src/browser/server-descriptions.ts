/**
 * Redoc shows a server's description (in the samples' server menu) as plain text, so Markdown
 * in it shows its syntax: "Local (`pnpm start`)". Here each such text is shown as Markdown, with
 * `<code>` for code spans. Only elements whose whole text React set from the description are
 * touched (see `reactTextChild`).
 */
import { element } from './dom.js'
import { hasInlineMarkdown, inlineSegments } from './inline-markdown.js'
import { ownedByReact, reactTextChild } from './react-owned.js'

function rendered(description: string): (Node | string)[] {
  return inlineSegments(description).map((segment) =>
    segment.kind === 'code' ? element('code', {}, segment.text) : segment.text,
  )
}

/** Renders, now and whenever Redoc renders them again, the descriptions found under `root`. */
export function renderServerDescriptions(root: Element, descriptions: string[]): void {
  const markdown = new Set(descriptions.filter(hasInlineMarkdown))
  if (markdown.size === 0) return

  const renderAll = () => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT)
    const shown: Element[] = []
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement
      if (parent && markdown.has((node as Text).data) && parent.childNodes.length === 1) {
        shown.push(parent)
      }
    }
    for (const parent of shown) {
      const text = parent.textContent ?? ''
      if (ownedByReact(parent) && reactTextChild(parent) === text) {
        parent.replaceChildren(...rendered(text))
      }
    }
  }

  let scheduled = false
  new MutationObserver(() => {
    if (scheduled) return
    scheduled = true
    requestAnimationFrame(() => {
      scheduled = false
      renderAll()
    })
  }).observe(root, { subtree: true, childList: true, characterData: true })
  renderAll()
}
