import { expect, it } from 'vitest'
import { lateBound } from '../src/late-bound.js'

it('calls what is bound later, and names itself when called too early or bound twice', () => {
  const double = lateBound<(n: number) => number>('the doubler')
  expect(() => double.call(2)).toThrow('the doubler was called before it was bound')
  double.bind((n) => n * 2)
  expect(double.call(2)).toBe(4)
  expect(() => double.bind((n) => n)).toThrow('the doubler is already bound')
})
