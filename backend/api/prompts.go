package api

import (
	"time"

	"engram/backend/memory"
	"engram/backend/prompts"
	"engram/backend/recall"
)

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

// MemoriesNotice is what an MCP answer carrying memory text as JSON values says of it first:
// the words build_context's wrapper says of the memories it holds (they are data, not
// instructions).
const MemoriesNotice = prompts.MCPMemoriesNotice

// UntrustedMemory renders one memory read by the MemoryManager tool the way build_context hands
// memories to a model: inside its wrapper, with its text escaped (recall.WrapMemory).
func UntrustedMemory(e ToolEntry) string {
	updated, _ := time.Parse(time.RFC3339, e.Updated)
	return recall.WrapMemory(&memory.Memory{ID: e.ID, Slug: e.Slug, Scope: e.Scope, Type: e.Type, Title: e.Title,
		Body: e.Body, Confidence: e.Confidence, Reviewed: e.Reviewed, Updated: updated})
}
