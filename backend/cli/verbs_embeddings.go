package cli

import (
	"bufio"
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
		if r.json {
			r.emitJSON(r.env.Stdout, res)
		} else if res.OK {
			fmt.Fprintln(r.env.Stdout, r.t("cli.embeddings_test_ok", map[string]any{"Model": res.Model, "Dim": res.Dim, "Ms": res.LatencyMS}))
		}
		if !res.OK {
			if !r.json && res.Error != nil {
				fmt.Fprintln(r.env.Stderr, r.t("cli.error", map[string]any{"Message": res.Error.Message}))
			}
			return errSilent
		}
	case "key set":
		fmt.Fprintln(r.env.Stderr, r.t("cli.llm_key_prompt", nil))
		line, err := bufio.NewReader(io.LimitReader(r.env.Stdin, 8<<10)).ReadString('\n')
		if err != nil && err != io.EOF {
			return err
		}
		st, err := r.api.Embeddings.SetKey(api.SetEmbeddingsKeyParams{Key: strings.TrimSpace(line)})
		if err != nil {
			return err
		}
		r.out(st, func(w io.Writer) { fmt.Fprintln(w, r.t("cli.llm_key_saved", nil)) })
	case "key clear":
		st, err := r.api.Embeddings.SetKey(api.SetEmbeddingsKeyParams{Clear: true})
		if err != nil {
			return err
		}
		r.out(st, func(w io.Writer) { fmt.Fprintln(w, r.t("cli.llm_key_cleared", nil)) })
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
