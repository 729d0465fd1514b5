import { defineConfig } from 'vitest/config'
import vue from '@vitejs/plugin-vue'
import type { Plugin } from 'vite'
import { fileURLToPath } from 'node:url'
import path from 'node:path'
import fs from 'node:fs'
import { parseCatalog } from './src/i18n/core'

const here = path.dirname(fileURLToPath(import.meta.url))
// One catalog for Go and the UI: the repo-root locales/ directory.
// ENGRAM_LOCALES_DIR may point elsewhere (used only by local tooling).
const localesDir = process.env.ENGRAM_LOCALES_DIR
  ? path.resolve(process.env.ENGRAM_LOCALES_DIR)
  : path.resolve(here, '../locales')

// dist/ is emptied on each build; the Go binary embeds it, so a tracked
// placeholder keeps `go build` working in a fresh clone before the first build.
const keepDist = {
  name: 'engram-keep-dist',
  closeBundle() {
    const keep = path.resolve(here, 'dist/.gitkeep')
    if (fs.existsSync(path.dirname(keep)) && !fs.existsSync(keep)) fs.writeFileSync(keep, '')
  },
}

// `import text from '@locales/en.toml?catalog'`: the catalog flattened at build time to its
// [key, message] pairs, as JSON text (src/i18n/catalogs.ts parses only the language shown).
// The page used to carry both TOML catalogs and the TOML parser and parse both at start-up.
export function catalogJson(): Plugin {
  const SUFFIX = '.toml?catalog'
  return {
    name: 'engram-catalog-json',
    load(id: string) {
      if (!id.endsWith(SUFFIX)) return null
      const file = id.slice(0, -'?catalog'.length)
      this.addWatchFile(file)
      const pairs = [...parseCatalog(fs.readFileSync(file, 'utf8'))]
      return { code: `export default ${JSON.stringify(JSON.stringify(pairs))}`, map: null }
    },
  }
}

// What esbuild's ASCII charset (below) cannot escape: characters in regular expression
// literals (date-fns' Chinese date patterns under naive-ui). A \uXXXX escape of each UTF-16
// unit means the same in a regular expression, a string or an identifier; template literals,
// whose raw text would change, are escaped by esbuild before this runs.
export function asciiOnly(): Plugin {
  return {
    name: 'engram-ascii-only',
    enforce: 'post',
    renderChunk(code: string) {
      if (!/[^\x00-\x7f]/.test(code)) return null
      const out = code.replace(/[^\x00-\x7f]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'))
      return { code: out, map: null }
    },
  }
}

// vueuc's focus trap (under every naive-ui modal, drawer and dialog) gives focus back to the
// element that opened it twice: when the modal closes, and again when its leave transition ends
// and it unmounts, because deactivate() never clears `activated`. By the second time the person
// may already be typing elsewhere (the search box right after saving a memory, and on a slow
// machine the transition is long): focus and keystrokes jumped to the "New memory" button and
// the query was lost. Clearing the flag makes the return happen once, at close. The build fails
// if the library's code no longer matches, so an upgrade is looked at rather than silently
// unpatched; the visual suite's search-after-save scenario covers the behaviour.
const FOCUS_TRAP = /[\\/]vueuc[\\/](es|lib)[\\/]focus-trap[\\/]src[\\/]index\.js$/
const FOCUS_TRAP_NEEDLE = "document.removeEventListener('focus', handleDocumentFocus, true);"
export function focusTrapReturnsOnce(): Plugin {
  let patched = 0
  return {
    name: 'engram-focus-trap-returns-once',
    enforce: 'pre',
    transform(code: string, id: string) {
      if (!FOCUS_TRAP.test(id)) return null
      if (!code.includes(FOCUS_TRAP_NEEDLE)) throw new Error(`focus trap patch: ${id} changed; review focusTrapReturnsOnce in vite.config.ts`)
      patched++
      return { code: code.replace(FOCUS_TRAP_NEEDLE, `${FOCUS_TRAP_NEEDLE} activated = false;`), map: null }
    },
    buildEnd() {
      if (process.env.VITEST === undefined && this.meta.watchMode === false && patched === 0) {
        throw new Error('focus trap patch: vueuc focus-trap was not bundled; review focusTrapReturnsOnce in vite.config.ts')
      }
    },
  }
}

// naive-ui's close button and spinner carry aria-labels in English ("close", "loading") that
// its locales do not cover: a Chinese screen reader heard English in every dialog. The build
// swaps each literal for a call to src/naive/labels.ts. Like the focus trap's patch, the build
// fails if the library's code no longer holds the literal, so an upgrade is looked at.
const NAIVE_LABELS: [RegExp, string][] = [
  [/[\\/]naive-ui[\\/]es[\\/]_internal[\\/]close[\\/]src[\\/]Close\.mjs$/, '"aria-label": "close"'],
  [/[\\/]naive-ui[\\/]es[\\/]_internal[\\/]loading[\\/]src[\\/]Loading\.mjs$/, '"aria-label": "loading"'],
]
export function naiveLabels(): Plugin {
  const labels = path.resolve(here, 'src/naive/labels.ts')
  const patched = new Set<string>()
  return {
    name: 'engram-naive-labels',
    enforce: 'pre',
    transform(code: string, id: string) {
      const hit = NAIVE_LABELS.find(([re]) => re.test(id))
      if (!hit) return null
      const needle = hit[1]
      if (!code.includes(needle)) throw new Error(`naive labels: ${id} changed; review naiveLabels in vite.config.ts`)
      patched.add(needle)
      const name = needle.slice('"aria-label": "'.length, -1)
      const out = code.replace(needle, `"aria-label": __engramNaiveLabel(${JSON.stringify(name)})`)
      return { code: `import { naiveLabel as __engramNaiveLabel } from ${JSON.stringify(labels)};\n${out}`, map: null }
    },
    buildEnd() {
      if (process.env.VITEST === undefined && this.meta.watchMode === false && patched.size !== NAIVE_LABELS.length) {
        throw new Error('naive labels: naive-ui\'s close or loading was not bundled; review naiveLabels in vite.config.ts')
      }
    },
  }
}

// The desktop window's first frame without script (src/shell/loader.js says why): the entry
// module leaves <head>, and the loader, an inline classic script right after <div id="app">
// (inline: a file of its own cost the first frame a request, ~13 ms in the desktop bench; the
// bridge's CSP allows it by its hash, backend/bridge/csp.go), shows the copy of the app's first
// frame it kept, then starts the entry (parser-inserted when there is no copy, as the build
// wrote it). The entry is still fetched from <head> (a module preload), beside the style sheet.
// Build only: the dev server loads the app as it always did.
export function shellLoader(): Plugin {
  // Whole-line comments stay in the source: the page need not parse them at every start.
  const source = fs
    .readFileSync(path.resolve(here, 'src/shell/loader.js'), 'utf8')
    .split('\n')
    .filter((line) => !/^\s*\/\//.test(line))
    .join('\n')
  if (/<\/script/i.test(source)) throw new Error('shell loader: loader.js must not hold a closing script tag')
  return {
    name: 'engram-shell-loader',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html: string) {
        const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/
        const m = entry.exec(html)
        if (!m) throw new Error('shell loader: the entry script was not found in index.html; review shellLoader in vite.config.ts')
        const anchor = '<div id="app"></div>'
        if (!html.includes(anchor)) throw new Error('shell loader: <div id="app"></div> was not found in index.html')
        return html
          .replace(m[0], `<link rel="modulepreload" crossorigin href="${m[1]}">\n    `)
          .replace(anchor, () => `${anchor}\n    <script data-entry="${m[1]}">${source}</script>`)
      },
    },
  }
}

export default defineConfig({
  plugins: [vue(), keepDist, focusTrapReturnsOnce(), naiveLabels(), catalogJson(), asciiOnly(), shellLoader()],
  base: './',
  resolve: {
    alias: {
      '@': path.resolve(here, 'src'),
      '@locales': localesDir,
    },
  },
  server: {
    fs: { allow: [here, localesDir] },
  },
  // ASCII-only output (other characters as \u escapes): a script with a single character
  // beyond Latin-1 (the Chinese catalog, naive-ui's zh-CN locale) is held and lexed by WebKit
  // as 16-bit text, twice the memory of the whole source.
  esbuild: { charset: 'ascii' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    chunkSizeWarningLimit: 2000,
    reportCompressedSize: false,
    rollupOptions: {
      output: {
        // echarts (and zrender under it) is needed only by the charts: its own chunk, so no
        // view that starts to import a chart pulls it into the first load.
        manualChunks(id: string) {
          if (/[\\/]node_modules[\\/](echarts|zrender)[\\/]/.test(id)) return 'echarts'
          return undefined
        },
      },
    },
  },
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
  },
})
