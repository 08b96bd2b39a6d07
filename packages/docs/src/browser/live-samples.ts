/**
 * Shows every code block of the page (the operations' samples and those of the introduction)
 * for the reader's server and key: the build writes them for `apiBaseUrl` with the key read from
 * the environment; here the server becomes the one the page talks to and, once the reader types
 * a key into the console, the key becomes a literal. Copying a sample copies what is shown.
 *
 * Redoc owns these nodes, so only the values of its text nodes change (never the nodes), and
 * only once React has claimed them: changing server-rendered text before hydration would make
 * React throw the page away and render it again.
 */
import { ownedByReact } from './react-owned.js'
import {
  type Substitution,
  sampleSubstitutions,
  substitute,
  substituteAcross,
} from './sample-text.js'

interface Shown {
  original: string
  shown: string
}

export interface LiveSamples {
  /** Shows the samples for `baseUrl` and `apiKey` (none when empty). */
  update(baseUrl: string, apiKey: string): void
}

export function liveSamples(root: Element, builtBaseUrl: string): LiveSamples {
  const shown = new WeakMap<Text, Shown>()
  let substitutions: Substitution[] = []

  function refresh(block: Element): void {
    if (!ownedByReact(block)) return
    const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT)
    const texts: Text[] = []
    for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node as Text)
    const originals = texts.map((text) => {
      const known = shown.get(text)
      return known && known.shown === text.data ? known.original : text.data
    })
    const next = substituteAcross(originals, substitutions)
    texts.forEach((text, i) => {
      const value = next[i] as string
      if (text.data !== value) text.data = value
      shown.set(text, { original: originals[i] as string, shown: value })
    })
  }

  const refreshAll = () => {
    for (const block of root.querySelectorAll('pre')) refresh(block)
  }
  new MutationObserver(refreshAll).observe(root, {
    subtree: true,
    childList: true,
    characterData: true,
  })

  // Redoc's copy buttons copy the source they were given, not the page's text.
  const clipboard = navigator.clipboard
  if (clipboard) {
    const writeText = clipboard.writeText.bind(clipboard)
    clipboard.writeText = (text: string) => writeText(substitute(text, substitutions))
  }

  return {
    update(baseUrl, apiKey) {
      substitutions = sampleSubstitutions(builtBaseUrl, baseUrl, apiKey)
      refreshAll()
    },
  }
}
