/** The spec line a change's location points at, for `--format github` annotations. */
import { describe, expect, it } from 'vitest'
import { sourceLines } from '../src/spec-diff/source-lines.js'

const spec = `openapi: 3.1.0
info: {title: Lines, version: 1.0.0}
paths:
  /pets:
    post:
      requestBody:
        content:
          application/json:
            schema:
              anyOf:
                - $ref: '#/components/schemas/Dog'
                - type: object
                  properties:
                    age:
                      type: integer
      responses:
        '200': {description: OK}
webhooks:
  petAdopted:
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                status:
                  enum: [adopted]
components:
  schemas:
    Dog:
      type: object
      properties:
        name:
          type: string
`
const lines = spec.split('\n')
const lineOf = sourceLines(spec)
const at = (location: string) => lines[lineOf(location) - 1]?.trim()

describe('sourceLines', () => {
  it('follows a composition branch by the component it names or by its position', () => {
    expect(at('POST /pets request body application/json: anyOf[Dog].name')).toBe('name:')
    expect(at('POST /pets request body application/json: anyOf[1].age')).toBe('age:')
  })

  it('finds a webhook by its name under `webhooks`', () => {
    expect(at('POST webhook:petAdopted request body application/json: status')).toBe('status:')
  })
})
