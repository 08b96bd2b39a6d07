/**
 * A guide of the introduction is a Markdown file next to this module with `{{placeholders}}`
 * filled in from the spec, and fenced snippets that the docs' tests run, as the page shows them,
 * against a real server.
 */
import { readFileSync } from 'node:fs'

/** `file`'s Markdown with each `{{name}}` replaced by `values[name]`; an unknown one fails. */
export function fillGuide(file: string, values: Readonly<Record<string, string>>): string {
  const template = readFileSync(new URL(`./${file}`, import.meta.url), 'utf8')
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => {
    const value = values[name]
    if (value === undefined) throw new Error(`${file}: unknown placeholder ${whole}`)
    return value
  })
}

/** A fenced code block of a guide. */
export interface Snippet {
  lang: string
  source: string
}

/** The fenced code blocks of `markdown`, in order. */
export function snippetsOf(markdown: string): Snippet[] {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => ({
    lang: match[1] as string,
    source: match[2] as string,
  }))
}
