// The link between this page and Go, as the UI sees it: always open inside the desktop
// window; over the bridge it needs a token (asked for, kept in localStorage, forgotten on
// log out), may be refused, and reconnects by itself after the server restarts.

import type { ApiError } from './errors'
import type { Transport, Unsubscribe } from './transport'
import { TOKEN_STORAGE_KEY, WsTransport, bridgeUrl, parseTokenInput, type ConnectionState } from './ws'

export type { ConnectionState }

export interface SessionSnapshot {
  /** wails: the desktop window (no token, never disconnected); ws: the bridge. */
  mode: 'wails' | 'ws'
  state: ConnectionState
  /** Whether the socket opened since the token was set (the app is shown from then on). */
  everOpen: boolean
  /** Why the bridge refused the token (state rejected). */
  rejection: ApiError | null
  /** Whether a token is set (stored or being tried). */
  hasToken: boolean
  /** Why the socket cannot open for now (the bridge at its connection cap); retried meanwhile. */
  busy: ApiError | null
}

export interface SessionEnv {
  location?: { protocol: string; host: string }
  localStorage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
}

export class Session {
  private listeners = new Set<(s: SessionSnapshot) => void>()
  private snap: SessionSnapshot
  private token: string

  constructor(
    readonly transport: Transport,
    private readonly env: SessionEnv = {},
    token = '',
  ) {
    this.token = token
    if (transport instanceof WsTransport) {
      this.snap = { mode: 'ws', state: transport.state, everOpen: false, rejection: null, hasToken: token !== '', busy: null }
      transport.onState((s) => this.follow(transport, s))
      if (transport.state !== 'idle') this.follow(transport, transport.state)
    } else {
      this.snap = { mode: 'wails', state: 'open', everOpen: true, rejection: null, hasToken: false, busy: null }
    }
  }

  get snapshot(): SessionSnapshot {
    return this.snap
  }

  onChange(cb: (s: SessionSnapshot) => void): Unsubscribe {
    this.listeners.add(cb)
    cb(this.snap)
    return () => this.listeners.delete(cb)
  }

  private set(p: Partial<SessionSnapshot>) {
    this.snap = { ...this.snap, ...p }
    for (const cb of this.listeners) cb(this.snap)
  }

  private follow(t: WsTransport, s: ConnectionState) {
    if (s === 'open') {
      // A token that worked is worth keeping.
      this.store(this.token)
      this.set({ state: s, everOpen: true, rejection: null, busy: null })
    } else if (s === 'rejected') {
      // A refused token is of no further use on this browser.
      if (this.stored() === this.token) this.store('')
      this.set({ state: s, rejection: t.rejection })
    } else {
      this.set({ state: s, busy: t.busy })
    }
  }

  private stored(): string {
    try {
      return this.env.localStorage?.getItem(TOKEN_STORAGE_KEY) ?? ''
    } catch {
      return ''
    }
  }

  private store(token: string) {
    try {
      if (token) this.env.localStorage?.setItem(TOKEN_STORAGE_KEY, token)
      else this.env.localStorage?.removeItem(TOKEN_STORAGE_KEY)
    } catch {
      /* storage unavailable: the token lasts as long as the page */
    }
  }

  private url(token: string): string {
    const loc = this.env.location ?? { protocol: 'http:', host: '127.0.0.1' }
    return token ? bridgeUrl(loc, token) : ''
  }

  /**
   * Tries the token in input (a token or a URL holding one). Returns false when input holds
   * no token; the outcome arrives as state open or rejected.
   */
  login(input: string): boolean {
    const t = this.transport
    if (!(t instanceof WsTransport)) return false
    const token = parseTokenInput(input)
    if (!token) return false
    this.token = token
    this.set({ everOpen: false, rejection: null, hasToken: true, busy: null })
    t.setUrl(this.url(token))
    return true
  }

  /**
   * The address bar changed to "#token=…" on an open page (a link pasted over the login page
   * changes only the hash, so the page does not reload): logs in with that token unless it is
   * the one in use and working. Returns whether it started a login.
   */
  loginFromHash(hash: string): boolean {
    const m = /(?:^#|[#&])token=([^&]+)/.exec(hash || '')
    if (!m) return false
    const token = parseTokenInput(`#token=${m[1]}`)
    if (!token || (token === this.token && this.snap.state === 'open')) return false
    return this.login(token)
  }

  /** Forgets the token on this browser and closes the connection. */
  logout(): void {
    const t = this.transport
    if (!(t instanceof WsTransport)) return
    this.store('')
    this.token = ''
    t.setUrl('')
    this.set({ state: 'idle', everOpen: false, rejection: null, hasToken: false, busy: null })
  }

  /** Reconnects now instead of waiting for the backoff. */
  retryNow(): void {
    if (this.transport instanceof WsTransport) this.transport.retryNow()
  }
}
