import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './App.vue'
import { useSettings } from './stores/settings'
import { loadDarkTheme } from './util/darkTheme'
import { applyUiFont } from './util/fonts'
import { takeShell } from './util/shell'
import './styles/base.css'
import './styles/markdown.css'

// The font stack from its first installed family, before anything is laid out (util/fonts.ts).
applyUiFont()
const pinia = createPinia()
const app = createApp(App).use(pinia)
// A dark window waits for the dark theme (a chunk of its own) rather than showing light first.
// The mount replaces a copy of the first frame the loader showed (util/shell.ts), and a copy of
// this mount's first frame is kept for the next start.
function mount() {
  app.mount('#app')
  takeShell()
}
if (useSettings(pinia).dark) loadDarkTheme().finally(mount)
else mount()
