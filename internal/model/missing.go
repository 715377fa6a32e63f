package model

import (
	"context"
	"sync"

	"github.com/wisp-sh/wisp/internal/model/probe"
)

// ollamaProbe remembers whether the server is Ollama, asked once.
type ollamaProbe struct {
	once sync.Once
	is   bool
}

// IsOllama reports whether the server is Ollama (probe.IsOllama), asked
// once a client.
func (c *Client) IsOllama(ctx context.Context) bool {
	c.ollama.once.Do(func() { c.ollama.is = probe.IsOllama(ctx, c.http, c.baseURL) })
	return c.ollama.is
}

// Models lists the models the server has (GET /models).
func (c *Client) Models(ctx context.Context) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, probe.Timeout)
	defer cancel()
	names, _, err := c.listModels(ctx)
	return names, err
}

// missing explains ErrModelMissing with what the server has, and the
// ollama pull hint only where the server is Ollama.
func (c *Client) missing(ctx context.Context, cause error) error {
	names, err := c.Models(ctx)
	if err != nil {
		names = nil
	}
	return c.missingFrom(names, err == nil, c.IsOllama(ctx), cause)
}

func (c *Client) missingFrom(names []string, listed, ollama bool, cause error) error {
	return &Error{Kind: ErrModelMissing, Cause: cause, Msg: probe.MissingMessage(c.name, c.baseURL, names, listed, ollama)}
}
