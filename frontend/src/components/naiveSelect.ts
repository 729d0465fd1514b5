// naive-ui's select alone, for a dynamic import: the Memories list loads it after its first
// frame (its chunk, with the menu, virtual list and tree code under it, is 76 kB of the 200 kB
// the view fetched before it could render).
export { NSelect } from 'naive-ui'
