package mcp

import (
	"context"
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"engram/backend/api"
)

// Resource addresses.
const (
	IndexURI       = "engram://index"
	memoryURIStart = "engram://memory/"
	memoryTemplate = "engram://memory/{id}"
	resourcesPage  = 50
)

// registerResources offers the Memory Index and each visible memory. resources/list is answered
// per session (what its caller sees, paged), so it is served by a middleware rather than from
// the SDK's fixed list.
func (s *Server) registerResources() {
	s.index = &sdk.Resource{URI: IndexURI, Name: "memory-index", Title: "Memory Index", MIMEType: "text/markdown",
		Description: "Every memory you can see, grouped by scope and type (read it at the start of a task)."}
	s.srv.AddResource(s.index, s.readIndex)
	s.srv.AddResourceTemplate(&sdk.ResourceTemplate{URITemplate: memoryTemplate, Name: "memory", Title: "Memory",
		MIMEType: "text/markdown", Description: "One memory in full, by id."}, s.readMemory)
	s.srv.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "resources/list" {
				if r, ok := req.(*sdk.ListResourcesRequest); ok {
					return s.listResources(ctx, r)
				}
			}
			return next(ctx, method, req)
		}
	})
}

// memoriesChanged tells every session that the resource list changed (re-adding the index
// resource is the SDK's way to send notifications/resources/list_changed, debounced), and the
// sessions subscribed to the index or to a changed memory that it was updated. The hub calls
// from the store's goroutine: the notifications go out from their own.
func (s *Server) memoriesChanged(data any) {
	s.srv.AddResource(s.index, s.readIndex)
	var ids []string
	if m, ok := data.(map[string]any); ok {
		ids, _ = m["ids"].([]string)
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = s.srv.ResourceUpdated(ctx, &sdk.ResourceUpdatedNotificationParams{URI: IndexURI})
		for _, id := range ids {
			_ = s.srv.ResourceUpdated(ctx, &sdk.ResourceUpdatedNotificationParams{URI: memoryURIStart + id})
		}
	}()
}

// subscribe admits a subscription to the index or to a memory the session can read; any other
// address reads as absent, like a read of it.
func (s *Server) subscribe(ctx context.Context, req *sdk.SubscribeRequest) error {
	uri := req.Params.URI
	if uri == IndexURI {
		return nil
	}
	if _, err := s.readMemory(ctx, &sdk.ReadResourceRequest{Session: req.Session, Params: &sdk.ReadResourceParams{URI: uri}}); err != nil {
		return sdk.ResourceNotFoundError(uri)
	}
	return nil
}

func (s *Server) readIndex(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	st := s.sessionFor(req.Session)
	workdir, terr := s.resolveWorkdir(ctx, req.Session, st, "")
	if terr != nil {
		return nil, toolProtocolError(rpcInternalError, terr)
	}
	res, terr := s.overview(workdir, st.agent)
	if terr != nil {
		return nil, toolProtocolError(rpcInternalError, terr)
	}
	ov := res.(api.OverviewResult)
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: IndexURI, MIMEType: "text/markdown", Text: ov.Index}}}, nil
}

func (s *Server) readMemory(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	uri := req.Params.URI
	id := strings.TrimPrefix(uri, memoryURIStart)
	if id == uri || id == "" || strings.ContainsAny(id, "/?#") {
		return nil, sdk.ResourceNotFoundError(uri)
	}
	st := s.sessionFor(req.Session)
	c := &call{ctx: ctx, ss: req.Session, st: st, session: st.id}
	res, terr := s.recallTool(c, "", false, map[string]any{"action": "read", "id": id})
	if terr != nil {
		// Outside the caller's view reads the same as absent: an id leaks nothing.
		return nil, sdk.ResourceNotFoundError(uri)
	}
	e := res.(api.ToolEntry)
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: renderEntry(e)}}}, nil
}

// listResources lists the index and the memories the session's caller sees, newest first, a
// page at a time (the cursor is the offset).
func (s *Server) listResources(ctx context.Context, req *sdk.ListResourcesRequest) (*sdk.ListResourcesResult, error) {
	offset := 0
	if req.Params != nil && req.Params.Cursor != "" {
		b, err := base64.RawURLEncoding.DecodeString(req.Params.Cursor)
		if err == nil {
			offset, err = strconv.Atoi(string(b))
		}
		if err != nil || offset < 0 {
			return nil, s.protocolError(rpcInvalidParams, codeInvalidCursor, map[string]any{"Tool": "resources/list"})
		}
	}
	st := s.sessionFor(req.Session)
	c := &call{ctx: ctx, ss: req.Session, st: st, session: st.id}
	res, terr := s.recallTool(c, "", false, map[string]any{"action": "list", "limit": resourcesPage, "offset": offset})
	if terr != nil {
		return nil, toolProtocolError(rpcInternalError, terr)
	}
	m := res.(map[string]any)
	items, _ := m["items"].([]api.ToolHit)
	total, _ := m["total"].(int)
	// Served here rather than by the SDK, the list is not given its cache fields there: it is
	// the caller's own view ("private"; it was sent as "").
	out := &sdk.ListResourcesResult{Resources: []*sdk.Resource{}, Cacheable: sdk.Cacheable{CacheScope: cachePrivate}}
	if offset == 0 {
		out.Resources = append(out.Resources, s.index)
	}
	for _, h := range items {
		out.Resources = append(out.Resources, &sdk.Resource{URI: memoryURIStart + h.ID, Name: h.Slug, Title: h.Title,
			MIMEType: "text/markdown", Description: string(h.Scope) + " / " + string(h.Type)})
	}
	if offset+len(items) < total {
		out.NextCursor = base64.RawURLEncoding.EncodeToString([]byte(strconv.Itoa(offset + len(items))))
	}
	return out, nil
}
