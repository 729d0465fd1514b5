/// <reference types="vite/client" />

declare module '*.toml?raw' {
  const text: string
  export default text
}

declare module '*.vue' {
  import type { DefineComponent } from 'vue'
  const component: DefineComponent<object, object, unknown>
  export default component
}
