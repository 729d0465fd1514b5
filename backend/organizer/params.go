package organizer

// Params of the api methods that name a run or a trigger. The other methods take
// RunsParams, ApplyParams or SettingsPatch, or nothing.

// RunParams name one run (organizer.run).
type RunParams struct {
	ID string `json:"id"`
}

// RunNowParams ask for a run (organizer.runNow); an empty trigger means manual.
type RunNowParams struct {
	Trigger Trigger `json:"trigger,omitempty"`
}

// AbortParams name the run to abort (organizer.abort); empty means the active one.
type AbortParams struct {
	RunID string `json:"run_id,omitempty"`
}
