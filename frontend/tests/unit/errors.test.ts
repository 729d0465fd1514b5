import { describe, expect, it } from 'vitest'
import { ApiError, errorField, normalizeError } from '../../src/api/errors'

describe('normalizeError', () => {
  it('reads the Wails shape: a string holding JSON', () => {
    const e = normalizeError(
      JSON.stringify({ code: 'version_conflict', i18n_key: 'error.version_conflict', args: { ID: 'x' }, message: 'changed' }),
    )
    expect(e).toBeInstanceOf(ApiError)
    expect(e.code).toBe('version_conflict')
    expect(e.i18nKey).toBe('error.version_conflict')
    expect(e.args).toEqual({ ID: 'x' })
    expect(e.message).toBe('changed')
  })

  it('reads the JSON-RPC shape: data carries the payload', () => {
    const e = normalizeError({
      code: -32000,
      message: 'No memory',
      data: { code: 'not_found', i18n_key: 'error.not_found', args: { Ref: 'abc' }, message: 'No memory “abc”.' },
    })
    expect(e.code).toBe('not_found')
    expect(e.i18nKey).toBe('error.not_found')
    expect(e.args).toEqual({ Ref: 'abc' })
  })

  it('derives the key from the code when the key is missing', () => {
    const e = normalizeError({ code: -32000, message: 'x', data: { code: 'quota_exhausted' } })
    expect(e.i18nKey).toBe('error.quota_exhausted')
    expect(e.args).toEqual({})
  })

  it('wraps a JSON-RPC error without data, plain strings and Errors as unknown', () => {
    for (const raw of [{ code: -32601, message: 'Method not found' }, 'boom', new Error('boom'), 42, null]) {
      const e = normalizeError(raw)
      expect(e.code).toBe('unknown')
      expect(e.i18nKey).toBe('ui.errors.unknown')
      expect(typeof e.args.Message).toBe('string')
    }
    expect(normalizeError('not json {').args.Message).toBe('not json {')
  })

  it('passes an ApiError through unchanged', () => {
    const a = new ApiError('x', 'error.x')
    expect(normalizeError(a)).toBe(a)
  })
})

describe('errorField', () => {
  const fields = ['title', 'body', 'slug', 'source_quote'] as const
  it('reads the field an error names, by its Field argument or its code', () => {
    expect(errorField(new ApiError('secret_detected', 'error.secret_detected', { Kind: 'github_token', Field: 'body' }), fields)).toBe('body')
    expect(errorField(new ApiError('control_character', 'error.control_character', { Field: 'source_quote' }), fields)).toBe('source_quote')
    expect(errorField(new ApiError('body_too_large', 'error.body_too_large', { Size: 9000, Max: 8192 }), fields)).toBe('body')
    expect(errorField(new ApiError('already_exists', 'error.already_exists', { Slug: 'x' }), fields)).toBe('slug')
  })
  it('names none when the field is not in the form or there is none', () => {
    expect(errorField(new ApiError('secret_detected', 'error.secret_detected', { Field: 'source.model' }), fields)).toBeNull()
    expect(errorField(new ApiError('version_conflict', 'error.version_conflict', {}), fields)).toBeNull()
    expect(errorField(null, fields)).toBeNull()
  })
})
