package extraction

import "engram/backend/memory"

// scrubbed returns rej with every text the model or a failure put in it passed through the
// secret guard's redaction: the refused item is stored with the run and shown in Activity, and
// a slug, action or scope refused for its shape ("unknown action \"ghp_…\"") was kept whole,
// key and all, in its slug, args and detail.
func scrubbed(rej RejectedItem) RejectedItem {
	rej.Slug, rej.Action, rej.Scope = memory.RedactSecrets(rej.Slug), memory.RedactSecrets(rej.Action), memory.RedactSecrets(rej.Scope)
	rej.Detail, rej.Message = memory.RedactSecrets(rej.Detail), memory.RedactSecrets(rej.Message)
	rej.Args = scrubArgs(rej.Args)
	return rej
}

// scrubArgs is args with its text values redacted (a copy when one changes).
func scrubArgs(args map[string]any) map[string]any {
	var out map[string]any
	for k, v := range args {
		s, ok := v.(string)
		if !ok {
			continue
		}
		if r := memory.RedactSecrets(s); r != s {
			if out == nil {
				out = make(map[string]any, len(args))
				for k2, v2 := range args {
					out[k2] = v2
				}
			}
			out[k] = r
		}
	}
	if out == nil {
		return args
	}
	return out
}
