import { defineConfig } from 'vitest/config'
import vue from '@vitejs/plugin-vue'
import { fileURLToPath } from 'node:url'
import path from 'node:path'
import fs from 'node:fs'

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

export default defineConfig({
  plugins: [vue(), keepDist],
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
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    chunkSizeWarningLimit: 2000,
    reportCompressedSize: false,
  },
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
  },
})
