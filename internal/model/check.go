package model

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/openai/openai-go/v3/option"
)

// Check asks the server for its models and reports ErrServerDown,
// ErrUnauthorized or ErrModelMissing before a conversation starts. A server
// that cannot list its models (no /models endpoint) passes: Stream will say
// what is wrong if anything is.
func (c *Client) Check(ctx context.Context) error {
	reqCtx, cancel := context.WithTimeoutCause(ctx, c.idle, errIdle)
	defer cancel()
	var answered atomic.Bool
	page, err := c.models.List(reqCtx, option.WithMiddleware(c.statusMiddleware(&answered)))
	var typed *Error
	switch {
	case errors.Is(err, ErrNoEndpoint):
		return nil
	case err != nil && answered.Load() && !errors.As(err, &typed):
		return nil // a list in a shape the SDK does not read tells nothing
	case err != nil:
		return c.classify(ctx, reqCtx, err, answered.Load())
	}
	var names []string
	for _, m := range page.Data {
		// Ollama takes a name without a tag to mean its :latest.
		if m.ID == c.name || m.ID == c.name+":latest" {
			return nil
		}
		names = append(names, m.ID)
	}
	return c.missingFrom(names, true, c.IsOllama(ctx), nil)
}
