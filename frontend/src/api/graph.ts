// The graph api (graph.*), typed by hand from the contract while the Go side is built in
// another branch; the lead reconciles these with the generated types.ts at merge.
// Same calls over either transport: "graph.neighbors" → GraphService.Neighbors (Wails) or the
// JSON-RPC method of the same name (bridge).

import { call } from './index'

export type GraphScope = 'global' | 'project' | 'agent'

/** Scope args every graph call takes (narrowing only). */
export interface GraphScopeArgs {
  scope?: GraphScope
  workdir?: string
  agent?: string
}

export interface Entity {
  id: string
  name: string
  type: string
  aliases: string[]
  scope: GraphScope | string
  workdir?: string
  agent?: string
  /** How many memories mention it. */
  memories: number
  degree: number
}

export interface MemoryRef {
  id: string
  slug: string
  title: string
  scope: GraphScope | string
}

export interface Edge {
  id: string
  source: string
  target: string
  type: string
  memories: MemoryRef[]
}

export interface Subgraph {
  nodes: Entity[]
  edges: Edge[]
  truncated: boolean
}

export interface GraphEntitiesParams extends GraphScopeArgs {
  query?: string
  types?: string[]
  limit?: number
}
export interface GraphEntitiesResult {
  entities: Entity[]
}

export interface GraphNeighborsParams extends GraphScopeArgs {
  /** Id or name. */
  entity: string
  depth?: number
  relation_types?: string[]
  entity_types?: string[]
  limit?: number
}

export interface GraphSubgraphParams extends GraphScopeArgs {
  /** Empty: the whole visible graph, highest degree first. */
  entity?: string
  depth?: number
  limit?: number
  relation_types?: string[]
  entity_types?: string[]
}

export interface GraphPathParams extends GraphScopeArgs {
  from: string
  to: string
  /** 1..6, default 4. */
  max_hops?: number
  relation_types?: string[]
}
export interface PathHop {
  from: string
  to: string
  edge: Edge
}
export interface GraphPathResult {
  found: boolean
  nodes: Entity[]
  hops: PathHop[]
  /** Not found within max_hops: the hops of the shortest path there is (absent when none). */
  longer?: number
}

export interface GraphEntityMemoriesParams extends GraphScopeArgs {
  entity: string
}
export interface GraphEntityMemoriesResult {
  memories: MemoryRef[]
}

export interface GraphChangedResult {
  changed: MemoryRef[]
}

export const graphEntities = (p: GraphEntitiesParams = {}) => call<GraphEntitiesResult>('graph.entities', p)
export const graphNeighbors = (p: GraphNeighborsParams) => call<Subgraph>('graph.neighbors', p)
export const graphSubgraph = (p: GraphSubgraphParams = {}) => call<Subgraph>('graph.subgraph', p)
export const graphPath = (p: GraphPathParams) => call<GraphPathResult>('graph.path', p)
export const graphEntityMemories = (p: GraphEntityMemoriesParams) => call<GraphEntityMemoriesResult>('graph.entityMemories', p)
// Person edits (written into memory bodies; offered by the Graph view's side panel, GraphEdit.vue).
export const graphRenameEntity = (p: { entity: string; name: string }) => call<GraphChangedResult>('graph.renameEntity', p)
export const graphMergeEntities = (p: { into: string; from: string[] }) => call<GraphChangedResult>('graph.mergeEntities', p)
export const graphDeleteEntity = (p: { entity: string }) => call<GraphChangedResult>('graph.deleteEntity', p)
export const graphAddRelation = (p: { memory: string; from?: string; type: string; to: string }) => call<GraphChangedResult>('graph.addRelation', p)
export const graphDeleteRelation = (p: { edge_id: string }) => call<GraphChangedResult>('graph.deleteRelation', p)
