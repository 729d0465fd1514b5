package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"engram/backend/api"
)

// embeddings runs `engram embeddings status` (what runs and how far the background embedding
// is), `engram embeddings test`, `engram embeddings key set` (the key read from stdin, never
// from the command line) and `engram embeddings key clear`. The provider itself is chosen in
// Settings → Embeddings.
func (r *runner) embeddings(_ context.Context, args []string) error {
	pos, err := r.flags("embeddings", args, nil)
	if err != nil {
		return err
	}
	what := "status | test | key set | key clear"
	switch strings.Join(pos, " ") {
	case "status":
		st, err := r.api.Recall.EmbedStatus(api.Empty{})
		if err != nil {
			return err
		}
		r.printEmbedStatus(st)
	case "test":
		res, err := r.api.Embeddings.Test(api.Empty{})
		if err != nil {
			return err
		}
		return r.testResult(res, res.OK, res.Error, r.t("cli.embeddings_test_ok",
			map[string]any{"Model": res.Model, "Dim": res.Dim, "Ms": res.LatencyMS}))
	case "key set", "key clear":
		return r.keyVerb(pos[1] == "set", func(key string, clear bool) (any, error) {
			return r.api.Embeddings.SetKey(api.SetEmbeddingsKeyParams{Key: key, Clear: clear})
		})
	default:
		return usageError(r.t("cli.missing_arg", map[string]any{"Command": "embeddings", "What": what}))
	}
	return nil
}

func (r *runner) printEmbedStatus(st api.EmbeddingStatus) {
	r.out(st, func(w io.Writer) {
		if st.Provider == "off" {
			fmt.Fprintln(w, r.t("cli.embeddings_off", nil))
		} else {
			fmt.Fprintln(w, r.t("cli.embeddings_status", map[string]any{"Provider": st.Provider, "Model": st.Model,
				"Backend": st.Backend, "Done": st.Progress.Done, "Total": st.Progress.Total}))
		}
		if st.Endpoint != "" {
			key := r.t("cli.llm_key_missing", nil)
			if st.KeySet {
				key = r.t("cli.llm_key_set", nil)
			} else if st.Local {
				key = r.t("cli.llm_key_local", nil)
			}
			fmt.Fprintln(w, r.t("cli.embeddings_key", map[string]any{"URL": st.Endpoint, "Key": key}))
		}
		if st.Error != nil {
			fmt.Fprintln(w, st.Error.Message)
		}
	})
}
