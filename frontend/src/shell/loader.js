// The desktop window's first frame without script: vite.config.ts (shellLoader) puts this file
// inline as a classic script right after <div id="app"> (the bridge's CSP allows it by its hash,
// backend/bridge/csp.go), and takes the app's entry module out of <head>; the script tag's
// data-entry names the entry.
//
// Why: WebKitGTK draws no frame while a parser-inserted module script is pending, so the window
// stayed blank until the whole app had been fetched, run and mounted (~130 ms of script, style
// and layout after the page's navigation; the hello-world Wails window paints ~90 ms sooner).
// The app keeps what its own first frame looked like (util/shell.ts: the DOM right after it
// mounted, before any answer from Go, and the style sheets naive-ui had injected); at the next
// start this script shows that copy at once, inert, and starts the app only after the copy's
// first frame. The app's mount replaces the copy in the same task, so no other frame shows
// between them. The copy is used only when everything its look depends on is as it was
// (fingerprint: this build's entry, language, theme, the nav's state, the font stack, the
// system's colour scheme and language); otherwise the entry loads as before (parser-inserted,
// so the first frame is still the app's). Only the desktop window (Wails' runtime present)
// keeps or shows a copy: a browser over the bridge loads the app as before.
;(function () {
  var KEY = 'engram.shell'
  var VERSION = 1
  var w = window
  var d = document
  var entry = d.currentScript ? d.currentScript.getAttribute('data-entry') : ''
  function store() {
    try {
      return w.localStorage
    } catch (e) {
      return null
    }
  }
  // What the app's first frame depends on, besides the build: a change to any of it means the
  // copy could differ from the frame the app would draw.
  function fingerprint() {
    var ls = store()
    var get = function (k) {
      return ls ? ls.getItem(k) : null
    }
    var dark = !!(w.matchMedia && w.matchMedia('(prefers-color-scheme: dark)').matches)
    return JSON.stringify([VERSION, entry, get('engram.ui'), get('engram.nav.collapsed'), get('engram.font'), navigator.language, dark])
  }
  function desktop() {
    return !!(w.runtime && typeof w.runtime.EventsEmit === 'function')
  }
  w.__engramShell = { key: KEY, fingerprint: fingerprint, desktop: desktop, shown: false }
  if (!entry) return

  var app = d.getElementById('app')
  var added = []
  function show() {
    if (!desktop() || !app) return false
    var ls = store()
    var text = ls && ls.getItem(KEY)
    if (!text) return false
    var o = JSON.parse(text)
    if (!o || o.fp !== fingerprint() || typeof o.html !== 'string') return false
    var html = d.documentElement
    // The language too: it decides the fonts and line breaks of Chinese text.
    if (o.lang) html.lang = o.lang
    html.className = o.cls || ''
    if (o.style) html.setAttribute('style', o.style)
    var link = d.head.querySelector('link[rel="stylesheet"]')
    var put = function (css, before) {
      var s = d.createElement('style')
      s.setAttribute('data-engram-shell', '')
      s.textContent = css
      if (before && link) d.head.insertBefore(s, link)
      else d.head.appendChild(s)
      added.push(s)
    }
    ;(o.before || []).forEach(function (css) {
      put(css, true)
    })
    ;(o.after || []).forEach(function (css) {
      put(css, false)
    })
    app.innerHTML = o.html
    return true
  }
  var shown = false
  try {
    shown = show()
  } catch (e) {
    shown = false
  }
  if (!shown) {
    // Undo whatever a copy that failed half-way put in place; the html element's class and
    // style are set again by the app itself.
    added.forEach(function (s) {
      s.remove()
    })
    if (app) app.textContent = ''
    // Parser-inserted, as the build wrote it: the first frame is the app's.
    d.write('<script type="module" crossorigin src="' + entry.replace(/"/g, '&quot;') + '"><\/script>')
    return
  }
  w.__engramShell.shown = true
  var started = false
  function start() {
    if (started) return
    started = true
    var s = d.createElement('script')
    s.type = 'module'
    s.crossOrigin = ''
    s.src = entry
    d.head.appendChild(s)
  }
  // Two frames after the copy was laid out it is on screen (the signal the app and the
  // hello-world send for their own first view); the app starts then. A window that draws no
  // frames (started hidden or minimised) starts the app anyway, a moment later.
  requestAnimationFrame(function () {
    requestAnimationFrame(function () {
      try {
        w.runtime.EventsEmit('engram:shell-painted')
      } catch (e) {
        /* the mark is for the start-up bench only */
      }
      start()
    })
  })
  setTimeout(start, 250)
})()
