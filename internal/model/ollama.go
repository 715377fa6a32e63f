package model

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/wisp-sh/wisp/internal/model/probe"
)

// ModelInfo is what a server says of the model, where it says (Ollama's
// /api/show, LM Studio's /api/v0/models); the zero value where it does not.
type ModelInfo struct {
	// ContextLength is the context the model was trained for, 0 if not
	// said. Ollama loads it with num_ctx tokens (4096 by default) unless
	// the server (OLLAMA_CONTEXT_LENGTH) or the Modelfile sets more: see
	// Request.ContextTokens.
	ContextLength int
	// NumCtx is the num_ctx the model's Modelfile sets, 0 if none.
	NumCtx int
	// Capabilities are Ollama's: "completion", "tools", "thinking", ….
	Capabilities []string
}

// CanUseTools reports whether the server says the model can use tools;
// true when it does not say.
func (m ModelInfo) CanUseTools() bool {
	return m.Capabilities == nil || slices.Contains(m.Capabilities, "tools")
}

// Info asks the server about the model: Ollama's POST /api/show, or LM
// Studio's GET /api/v0/models. A server that answers neither (llama.cpp,
// vLLM, a hosted API) gives the zero ModelInfo and no error.
func (c *Client) Info(ctx context.Context) (ModelInfo, error) {
	if !c.IsOllama(ctx) {
		return c.lmStudioInfo(ctx), nil
	}
	var show struct {
		Parameters   string                     `json:"parameters"`
		ModelInfo    map[string]json.RawMessage `json:"model_info"`
		Capabilities []string                   `json:"capabilities"`
	}
	body, _ := json.Marshal(map[string]string{"model": c.name})
	if err := c.native(ctx, http.MethodPost, "/api/show", body, &show); err != nil {
		return ModelInfo{}, err
	}
	info := ModelInfo{Capabilities: show.Capabilities, NumCtx: modelfileNumCtx(show.Parameters)}
	var arch string
	_ = json.Unmarshal(show.ModelInfo["general.architecture"], &arch)
	_ = json.Unmarshal(show.ModelInfo[arch+".context_length"], &info.ContextLength)
	return info, nil
}

// lmStudioInfo reads the model's max_context_length from LM Studio's
// model list; anything else (a 404 from another server) says nothing.
func (c *Client) lmStudioInfo(ctx context.Context) ModelInfo {
	var list struct {
		Data []struct {
			ID               string `json:"id"`
			MaxContextLength int    `json:"max_context_length"`
		} `json:"data"`
	}
	if c.native(ctx, http.MethodGet, "/api/v0/models", nil, &list) != nil {
		return ModelInfo{}
	}
	for _, m := range list.Data {
		if m.ID == c.name {
			return ModelInfo{ContextLength: m.MaxContextLength}
		}
	}
	return ModelInfo{}
}

// modelfileNumCtx reads "num_ctx N" from a Modelfile's parameters.
func modelfileNumCtx(params string) int {
	for _, line := range strings.Split(params, "\n") {
		f := strings.Fields(line)
		var n int
		if len(f) == 2 && f[0] == "num_ctx" {
			if _, err := fmt.Sscan(f[1], &n); err == nil {
				return n
			}
		}
	}
	return 0
}

// ToolModels lists the server's models that say they can use tools:
// Ollama's /api/tags with capabilities (Ollama 0.12 and later). Nil, no
// error, where the server does not say.
func (c *Client) ToolModels(ctx context.Context) ([]string, error) {
	if !c.IsOllama(ctx) {
		return nil, nil
	}
	var tags struct {
		Models []struct {
			Name         string   `json:"name"`
			Capabilities []string `json:"capabilities"`
		} `json:"models"`
	}
	if err := c.native(ctx, http.MethodGet, "/api/tags", nil, &tags); err != nil {
		return nil, err
	}
	var names []string
	for _, m := range tags.Models {
		if slices.Contains(m.Capabilities, "tools") {
			names = append(names, m.Name)
		}
	}
	return names, nil
}

// native asks the server's own API (Ollama's, LM Studio's) at path and decodes its JSON answer.
func (c *Client) native(ctx context.Context, method, path string, body []byte, into any) error {
	ctx, cancel := context.WithTimeout(ctx, probe.Timeout)
	defer cancel()
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, probe.Root(c.baseURL)+path, r)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("asking the model server for %s: %w", path, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 8<<20))
	if err != nil {
		return fmt.Errorf("reading the model server's %s: %w", path, err)
	}
	if res.StatusCode != http.StatusOK {
		return &ServerError{Status: res.StatusCode, Message: errorMessage(data)}
	}
	if err := json.Unmarshal(data, into); err != nil {
		return fmt.Errorf("the model server's %s is not the JSON expected: %w", path, err)
	}
	return nil
}
