package memory

// ReconcileReport counts what a reconcile or reindex did.
type ReconcileReport struct {
	Scanned   int      `json:"scanned"`
	Added     int      `json:"added"`
	Updated   int      `json:"updated"`
	Removed   int      `json:"removed"`
	Unchanged int      `json:"unchanged"`
	Problems  int      `json:"problems"`
	ChangedID []string `json:"-"`
	// ProblemsChanged is set when a file became unreadable or an unreadable one was fixed or
	// removed, so windows showing the problems list can refresh.
	ProblemsChanged bool `json:"-"`
	// RiskyUnreviewed counts files indexed as unreviewed (in the index only, the file is left
	// as it is) because they say reviewed but hold text that tries to steer an agent.
	RiskyUnreviewed int `json:"risky_unreviewed"`
	// wiping marks a full rebuild: its re-adds are not changes worth an audit row each.
	wiping bool
	// ids holds the ids a full rebuild has indexed so far (insertText).
	ids map[string]bool
	// graphLater holds a full rebuild's memories that have links, whose graph rows are written
	// after all the text (upsertText says why).
	graphLater []graphPending
	// prior is what the wiped index knew (see priorIndex).
	prior priorIndex
	// bulk marks a pass that held the full-text merges back (holdMerges): one merge follows.
	bulk bool
}
