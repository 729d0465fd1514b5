import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './App.vue'
import './styles/base.css'
import './styles/markdown.css'

// The view the window opens on (Memories), fetched while the shell mounts instead of after:
// the shell's lazy view asks for the same module.
import('@/views/MemoriesView.vue').catch(() => {}) // a failure shows where the view goes

createApp(App).use(createPinia()).mount('#app')
