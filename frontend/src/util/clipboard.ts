// Copies text: the Wails runtime in the desktop window, the Clipboard API in a browser
// (127.0.0.1 is a secure context), else a hidden textarea and execCommand.

export async function copyText(text: string): Promise<boolean> {
  const rt = (globalThis as { runtime?: { ClipboardSetText?: (s: string) => Promise<boolean> } }).runtime
  if (rt?.ClipboardSetText) {
    try {
      if (await rt.ClipboardSetText(text)) return true
    } catch {
      /* fall through */
    }
  }
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text)
      return true
    }
  } catch {
    /* fall through */
  }
  return legacyCopy(text)
}

function legacyCopy(text: string): boolean {
  if (typeof document === 'undefined') return false
  const ta = document.createElement('textarea')
  ta.value = text
  ta.setAttribute('readonly', '')
  ta.style.position = 'fixed'
  ta.style.opacity = '0'
  document.body.appendChild(ta)
  ta.select()
  let ok = false
  try {
    ok = document.execCommand('copy')
  } catch {
    ok = false
  }
  ta.remove()
  return ok
}

/** "Chrome 126 · Linux" from a user agent string; empty when nothing is recognised. */
export function describeUserAgent(ua: string): string {
  if (!ua) return ''
  const browsers: [RegExp, string][] = [
    [/Edg\/(\d+)/, 'Edge'],
    [/OPR\/(\d+)/, 'Opera'],
    [/Firefox\/(\d+)/, 'Firefox'],
    [/HeadlessChrome\/(\d+)/, 'Headless Chrome'],
    [/Chrom(?:e|ium)\/(\d+)/, 'Chrome'],
    [/Version\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
    [/^node(?:\/|$)|undici/i, 'Node.js'],
    [/^Go-http-client/, 'Go'],
    [/^curl\/(\d+)/, 'curl'],
    [/^python/i, 'Python'],
  ]
  let browser = ''
  for (const [re, name] of browsers) {
    const m = re.exec(ua)
    if (m) {
      browser = m[1] ? `${name} ${m[1]}` : name
      break
    }
  }
  const systems: [RegExp, string][] = [
    [/Android/, 'Android'],
    [/iPhone|iPad|iPod/, 'iOS'],
    [/Windows/, 'Windows'],
    [/Mac OS X|Macintosh/, 'macOS'],
    [/CrOS/, 'ChromeOS'],
    [/Linux|X11/, 'Linux'],
  ]
  let os = ''
  for (const [re, name] of systems) {
    if (re.test(ua)) {
      os = name
      break
    }
  }
  if (!browser && !os) return ua.length > 40 ? ua.slice(0, 40) + '…' : ua
  return [browser, os].filter(Boolean).join(' · ')
}
