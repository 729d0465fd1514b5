// A locales/*.toml catalog imported with ?catalog: its flattened [key, message] pairs as JSON
// text (vite.config.ts, catalogJson).
declare module '*.toml?catalog' {
  const json: string
  export default json
}
