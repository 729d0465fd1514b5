// Transport over the Wails bindings (desktop window).
//
// "memory.applyBatch" → window.go.api.MemoryService.ApplyBatch(params)
// Every bound method takes one params object and returns (result, error); a Go
// error rejects the promise with a string holding the JSON error payload.

import { normalizeError } from './errors'
import type { EventCallback, Transport, Unsubscribe } from './transport'

type BoundMethod = (params: object) => Promise<unknown>
type BoundService = Record<string, BoundMethod>

export interface WailsWindow {
  go?: { api?: Record<string, BoundService> }
  runtime?: {
    EventsOn?: (name: string, cb: (...data: unknown[]) => void) => (() => void) | void
    EventsOff?: (name: string, ...more: string[]) => void
  }
}

const capitalise = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s)

/** Maps "memory.applyBatch" to ["MemoryService", "ApplyBatch"]. */
export function wailsTarget(method: string): { service: string; method: string } {
  const dot = method.indexOf('.')
  if (dot <= 0 || dot === method.length - 1 || method.indexOf('.', dot + 1) !== -1) {
    throw new Error(`invalid api method name: ${method}`)
  }
  return {
    service: capitalise(method.slice(0, dot)) + 'Service',
    method: capitalise(method.slice(dot + 1)),
  }
}

export function hasWails(w: unknown): boolean {
  const api = (w as WailsWindow | undefined)?.go?.api
  return typeof api === 'object' && api !== null
}

export class WailsTransport implements Transport {
  readonly kind = 'wails' as const

  constructor(private readonly w: WailsWindow) {}

  async call(method: string, params: object): Promise<unknown> {
    const target = wailsTarget(method)
    const fn = this.w.go?.api?.[target.service]?.[target.method]
    if (typeof fn !== 'function') {
      throw normalizeError({
        code: 'unknown_method',
        i18n_key: 'ui.errors.unknown_method',
        args: { Method: method },
        message: `no binding for ${method}`,
      })
    }
    try {
      return await fn(params ?? {})
    } catch (err) {
      throw normalizeError(err)
    }
  }

  on(name: string, cb: EventCallback): Unsubscribe {
    const rt = this.w.runtime
    if (!rt?.EventsOn) return () => {}
    const off = rt.EventsOn(name, (...data: unknown[]) => cb(data[0]))
    return () => {
      if (typeof off === 'function') off()
      else rt.EventsOff?.(name)
    }
  }
}
