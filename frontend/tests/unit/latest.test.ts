import { describe, expect, it } from 'vitest'
import { latest } from '../../src/stores/latest'

function deferred<T>() {
  let resolve!: (v: T) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)))
  return { promise, resolve, reject }
}

describe('latest', () => {
  it('applies only the newest answer, whatever order they arrive in', async () => {
    const slot = latest()
    const applied: string[] = []
    const first = deferred<string>()
    const second = deferred<string>()
    const a = slot.run(() => first.promise, (v) => applied.push(v), () => applied.push('error'))
    const b = slot.run(() => second.promise, (v) => applied.push(v), () => applied.push('error'))
    expect(slot.loading.value).toBe(true)
    second.resolve('second')
    await b
    expect(slot.loading.value).toBe(false)
    first.resolve('first (stale)')
    await a
    expect(applied).toEqual(['second'])
    expect(slot.loading.value).toBe(false)
  })

  it('reports a failure of the newest call as an ApiError, and drops a stale one', async () => {
    const slot = latest()
    const failures: string[] = []
    const stale = deferred<string>()
    const a = slot.run(() => stale.promise, () => {}, (e) => failures.push(`stale ${e.code}`))
    const b = slot.run(() => Promise.reject({ code: 'not_found', i18n_key: 'error.not_found', args: {}, message: 'gone' }), () => {}, (e) => failures.push(e.code))
    await b
    stale.reject(new Error('late'))
    await a
    expect(failures).toEqual(['not_found'])
  })
})
