package api

import (
	"engram/backend/extraction"
	"engram/backend/settings"
)

// The settings and extraction-run vocabulary transports name, re-exported (aliases): the CLI
// sets the language model (settings.update) and lists extraction runs (extraction.runs).
type (
	SettingsPatch        = settings.Patch
	LLMPatch             = settings.LLMPatch
	ExtractionRunsParams = extraction.RunsParams
)
