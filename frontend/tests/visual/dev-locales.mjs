// Local tooling only: writes catalogs to DIR that combine ../locales/*.toml with
// the ui.* keys in frontend/locale-keys-needed.*.toml that the repo catalogs lack,
// so the UI can be looked at before the keys are merged into locales/.
//   node tests/visual/dev-locales.mjs DIR   then   ENGRAM_LOCALES_DIR=DIR npm run build
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse, stringify } from 'smol-toml'

const here = path.dirname(fileURLToPath(import.meta.url))
const front = path.resolve(here, '../..')
const out = process.argv[2]
if (!out) {
  console.error('usage: dev-locales.mjs DIR')
  process.exit(2)
}
fs.mkdirSync(out, { recursive: true })

function merge(base, extra) {
  for (const [k, v] of Object.entries(extra)) {
    if (v && typeof v === 'object' && !Array.isArray(v) && base[k] && typeof base[k] === 'object') merge(base[k], v)
    else if (!(k in base)) base[k] = v
  }
  return base
}

for (const lang of ['en', 'zh-CN']) {
  const repoFile = path.join(front, '..', 'locales', `${lang}.toml`)
  const base = fs.existsSync(repoFile) ? parse(fs.readFileSync(repoFile, 'utf8')) : {}
  const extra = parse(fs.readFileSync(path.join(front, `locale-keys-needed.${lang}.toml`), 'utf8'))
  fs.writeFileSync(path.join(out, `${lang}.toml`), stringify(merge(base, extra)))
}
console.log(out)
