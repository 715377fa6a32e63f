package model

import (
	"context"
	"errors"
)

// Check asks the server for its models and reports ErrServerDown,
// ErrUnauthorized or ErrModelMissing before a conversation starts. A server
// that cannot list its models (no /models endpoint) passes: Stream will say
// what is wrong if anything is.
func (c *Client) Check(ctx context.Context) error {
	reqCtx, cancel := context.WithTimeoutCause(ctx, c.idle, errIdle)
	defer cancel()
	listed, answered, err := c.listModels(reqCtx)
	switch {
	case errors.Is(err, ErrNoEndpoint):
		return nil
	case err != nil && answered:
		return nil // a list in a shape not read tells nothing
	case err != nil:
		return c.classify(ctx, reqCtx, err, answered)
	}
	var names []string
	for _, name := range listed {
		// Ollama takes a name without a tag to mean its :latest.
		if name == c.name || name == c.name+":latest" {
			return nil
		}
		names = append(names, name)
	}
	return c.missingFrom(names, true, c.IsOllama(ctx), nil)
}
