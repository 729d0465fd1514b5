package api

import "engram/backend/prompts"

// MCPInstructions is what the MCP server tells a connecting client's model about Engram.
const MCPInstructions = prompts.MCPInstructions

// MCPToolDescription is the paragraph a model reads about the MCP tool called name ("" for a
// name the prompts do not know).
func MCPToolDescription(name string) string {
	return map[string]string{
		"memory_search": prompts.MCPMemorySearch, "memory_read": prompts.MCPMemoryRead, "memory_list": prompts.MCPMemoryList,
		"memory_write": prompts.MCPMemoryWrite, "memory_update": prompts.MCPMemoryUpdate, "memory_delete": prompts.MCPMemoryDelete,
		"memory_overview": prompts.MCPMemoryOverview, "build_context": prompts.MCPBuildContext, "daily_append": prompts.MCPDailyAppend,
		"observe_turn": prompts.MCPObserveTurn, "kv_get": prompts.MCPKVGet, "kv_set": prompts.MCPKVSet,
		"kv_delete": prompts.MCPKVDelete, "kv_list": prompts.MCPKVList,
		"graph_entities": prompts.MCPGraphEntities, "graph_neighbors": prompts.MCPGraphNeighbors,
		"graph_path": prompts.MCPGraphPath, "graph_subgraph": prompts.MCPGraphSubgraph,
	}[name]
}
