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
// /api/show); the zero value where it does not.
type ModelInfo struct {
	// ContextLength is the context the model was trained for, 0 if not
	// said. Ollama loads it with num_ctx tokens (4096 by default) unless
	// a request asks for more: see Request.ContextTokens.
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

// Info asks the server about the model: Ollama's POST /api/show. Other
// servers are not asked: the zero ModelInfo, no error.
func (c *Client) Info(ctx context.Context) (ModelInfo, error) {
	if !c.IsOllama(ctx) {
		return ModelInfo{}, nil
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

// native asks Ollama's own API at path and decodes its JSON answer.
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
		return fmt.Errorf("the model server's %s is not the JSON Ollama sends: %w", path, err)
	}
	return nil
}
