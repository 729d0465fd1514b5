// The only place in the UI that talks to Go. Every wrapper has the same
// signature over either transport (Wails bindings or the websocket bridge).

import type { EventCallback, Transport, Unsubscribe } from './transport'
import { WailsTransport, hasWails, type WailsWindow } from './wails'
import { WsTransport, bridgeUrl, resolveToken, type WebSocketLike } from './ws'
import type {
  AppInfo,
  EventMap,
  IdParams,
  ItemResult,
  ListParams,
  ListResult,
  QuotaSummary,
  ReadParams,
  ReadResult,
  SearchParams,
  SearchResult,
  Settings,
  SettingsUpdate,
  UpdateParams,
  WriteParams,
} from './types'

export * from './types'
export { ApiError, normalizeError } from './errors'
export type { Transport } from './transport'

/** Picks the Wails transport inside the desktop window, else the bridge. */
export function selectTransport(w: unknown = globalThis): Transport {
  if (hasWails(w)) return new WailsTransport(w as WailsWindow)
  const g = w as { location?: Location; localStorage?: Storage; WebSocket?: new (url: string) => WebSocketLike }
  const loc = g.location ?? { protocol: 'http:', host: '127.0.0.1', hash: '' }
  const token = resolveToken(loc, g.localStorage)
  const WS = g.WebSocket
  const t = new WsTransport({ url: bridgeUrl(loc, token), factory: WS ? (url) => new WS(url) : undefined })
  t.connect()
  return t
}

let current: Transport | null = null

export function transport(): Transport {
  if (!current) current = selectTransport()
  return current
}

/** Replaces the transport (tests). */
export function setTransport(t: Transport | null): void {
  current = t
}

export function call<T>(method: string, params: object = {}): Promise<T> {
  return transport().call(method, params) as Promise<T>
}

export const appInfo = () => call<AppInfo>('app.info')
export const getSettings = () => call<Settings>('settings.get')
export const updateSettings = (p: SettingsUpdate) => call<Settings>('settings.update', p)

export const listMemories = (p: ListParams) => call<ListResult>('memory.list', p)
export const readMemory = (p: ReadParams) => call<ReadResult>('memory.read', p)
export const searchMemories = (p: SearchParams) => call<SearchResult>('memory.search', p)
export const writeMemory = (p: WriteParams) => call<ItemResult>('memory.write', p)
export const updateMemory = (p: UpdateParams) => call<ItemResult>('memory.update', p)
export const deleteMemory = (p: IdParams) => call<ItemResult>('memory.delete', p)
export const acceptMemory = (p: IdParams) => call<ItemResult>('memory.accept', p)
export const rejectMemory = (p: IdParams) => call<ItemResult>('memory.reject', p)

export const quotaSummary = () => call<QuotaSummary>('quota.summary')

export type ConnectionState = 'connecting' | 'open' | 'closed'

/** Follows the link to Go: always open for the desktop window, live for the bridge. */
export function onConnection(cb: (s: ConnectionState) => void): Unsubscribe {
  const t = transport()
  if (t instanceof WsTransport) {
    cb(t.state)
    return t.onState(cb)
  }
  cb('open')
  return () => {}
}

/** Opens a link in the system browser (desktop) or a new tab (bridge). */
export function openExternal(url: string): void {
  const rt = (globalThis as { runtime?: { BrowserOpenURL?: (u: string) => void } }).runtime
  if (transport().kind === 'wails' && rt?.BrowserOpenURL) rt.BrowserOpenURL(url)
  else globalThis.open?.(url, '_blank', 'noopener,noreferrer')
}

export function onEvent<K extends keyof EventMap & string>(name: K, cb: (data: EventMap[K]) => void): Unsubscribe {
  return transport().on(name, cb as EventCallback)
}
