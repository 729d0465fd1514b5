import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './App.vue'
import { applyUiFont } from './util/fonts'
import { takeShell } from './util/shell'
import './styles/base.css'
import './styles/markdown.css'

// The font stack from its first installed family, before anything is laid out (util/fonts.ts).
applyUiFont()
const pinia = createPinia()
const app = createApp(App).use(pinia)
// The first view is drawn with the app's own styles in both themes (naive-ui's dark theme
// comes with naive-ui, src/naive/load.ts). The mount replaces a copy of the first frame the
// loader showed (util/shell.ts), and a copy of this mount's first frame is kept for the next
// start.
function mount() {
  app.mount('#app')
  takeShell()
}
mount()
