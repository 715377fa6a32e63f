package model

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// DefaultMaxRetries is how often a request that the server refused for
// now (HTTP 408, 409, 429, 5xx) is sent again before any of the answer
// came. Bounded: a server that keeps failing is said to fail.
const DefaultMaxRetries = 3

// Backoff between retries: firstBackoff, doubled each time, at most
// maxBackoff; a Retry-After the server sends is honoured up to
// maxRetryAfter, and past that the request is not retried.
const (
	firstBackoff  = 500 * time.Millisecond
	maxBackoff    = 8 * time.Second
	maxRetryAfter = 60 * time.Second
)

// Retry is one retry, for the face to show.
type Retry struct {
	Attempt, Max int           // this is retry Attempt of at most Max
	Wait         time.Duration // how long wisp waits before it
	Err          error         // what the last try came to
}

// Notice is the · line a face shows for r.
func (r Retry) Notice() string {
	what := r.Err.Error()
	// A web page is named once, by the error the last try ends in; a
	// retry's line says only its status.
	if se, ok := asServerError(r.Err); ok && se.Status != 0 && isWebPage(se.Message) {
		what = fmt.Sprintf("HTTP %d, a web page", se.Status)
	}
	return fmt.Sprintf("· the model server failed (%s); retry %d of %d in %s", what, r.Attempt, r.Max,
		r.Wait.Round(100*time.Millisecond))
}

// WithRetryNotice has report told of each retry before its wait.
func WithRetryNotice(report func(Retry)) Option {
	return func(s *settings) { s.onRetry = report }
}

// retryable reports whether err is the server's "not now", and what wait
// it asked for (0: none said).
func (c *Client) retryable(err error) (bool, time.Duration) {
	se, ok := asServerError(err)
	if !ok || se.Status == 0 {
		return c.remote && errors.Is(err, errUnreachable), 0
	}
	switch {
	case se.Status == http.StatusRequestTimeout, se.Status == http.StatusConflict,
		se.Status == http.StatusTooManyRequests, se.Status >= 500:
		return true, se.RetryAfter
	}
	return false, 0
}

// backoff is the wait before retry attempt (1, 2, …).
func backoff(attempt int, asked time.Duration) time.Duration {
	if asked > 0 {
		return asked
	}
	d := firstBackoff << (attempt - 1)
	return min(d, maxBackoff)
}

// parseRetryAfter reads a Retry-After header: seconds, or an HTTP date.
func parseRetryAfter(h string, now time.Time) time.Duration {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0
	}
	if n, err := strconv.Atoi(h); err == nil && n >= 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(h); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// withRetries runs try until it succeeds, fails for good, or the retries
// are spent; a try that already passed text on (started) is never
// retried, since the person has seen it. A server that says it is
// loading the model is asked again every loadingPoll for as long as it
// says so, up to the first-byte timeout, without spending retries; waited
// is the last Status of that wait.
func (c *Client) withRetries(ctx context.Context, start time.Time, waited *Status,
	try func() (Result, bool, error)) (Result, error) {
	for attempt := 1; ; {
		res, started, err := try()
		if err != nil && !started && isLoading(err) && time.Since(start) < c.firstByte {
			*waited = Status{Loading: true, Elapsed: time.Since(start)}
			if c.onStatus != nil {
				c.onStatus(*waited)
			}
			if !sleep(ctx, c.waits.loadingPoll) {
				return res, cancelled(ctx)
			}
			continue
		}
		ok, asked := c.retryable(err)
		if err == nil || started || !ok || attempt > c.retries || asked > maxRetryAfter {
			return res, err
		}
		wait := backoff(attempt, asked)
		if c.onRetry != nil {
			c.onRetry(Retry{Attempt: attempt, Max: c.retries, Wait: wait, Err: err})
		}
		if !sleep(ctx, wait) {
			return res, cancelled(ctx)
		}
		attempt++
	}
}

// sleep waits d, or less if ctx ends first (then false).
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

func asServerError(err error) (*ServerError, bool) {
	var se *ServerError
	ok := errors.As(err, &se)
	return se, ok
}
