// Package probe checks a model server without the model client: that it
// answers at model.baseURL, lists the model, and whether it is Ollama.
// It is plain net/http, so `wisp doctor` (which the lean wisp runs
// without the model client) can ask, and it words a missing model the way
// the client does: what the server has, and `ollama pull` only for
// Ollama. It imports only config.
package probe

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/wisp-sh/wisp/internal/config"
)

// Timeout bounds each request of a probe.
const Timeout = 3 * time.Second

// maxListed bounds the models a message names.
const maxListed = 10

// Root is the server's address without the OpenAI-compatible /v1.
func Root(baseURL string) string {
	return strings.TrimSuffix(strings.TrimSuffix(baseURL, "/"), "/v1")
}

// IsOllama reports whether the server at baseURL is Ollama: its native
// API answers /api/version beside the OpenAI-compatible one.
func IsOllama(ctx context.Context, hc *http.Client, baseURL string) bool {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, Root(baseURL)+"/api/version", nil)
	if err != nil {
		return false
	}
	res, err := hc.Do(req)
	if err != nil {
		return false
	}
	defer res.Body.Close()
	var v struct {
		Version string `json:"version"`
	}
	body, _ := io.ReadAll(io.LimitReader(res.Body, 4<<10))
	return res.StatusCode == http.StatusOK && json.Unmarshal(body, &v) == nil && v.Version != ""
}

// MissingMessage says that model is not on the server at baseURL, what
// the server has (when it could be listed), and what to do.
func MissingMessage(model, baseURL string, names []string, listed, ollama bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "the model %s is not on the server at %s", model, baseURL)
	switch {
	case listed && len(names) == 0:
		b.WriteString("; it has no models")
	case listed:
		b.WriteString("; it has " + listOf(names))
	}
	switch {
	case ollama:
		fmt.Fprintf(&b, "; run: ollama pull %s", model)
		if len(names) > 0 {
			b.WriteString(", or set model.name to one it has")
		}
	case len(names) > 0:
		b.WriteString("; set model.name to one of them (wisp config set model.name NAME)")
	default:
		b.WriteString("; check model.name, and load the model on the server")
	}
	return b.String()
}

func listOf(names []string) string {
	if len(names) <= maxListed {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:maxListed], ", ") + fmt.Sprintf(" and %d more", len(names)-maxListed)
}

// Has reports whether names holds model (Ollama takes a name without a
// tag to mean its :latest).
func Has(names []string, model string) bool {
	for _, n := range names {
		if n == model || n == model+":latest" {
			return true
		}
	}
	return false
}

// Check asks the server configured in cfg for its models: it answers
// with a line for doctor, or an error that says what to do. The API key
// is read through getenv from the variable cfg.APIKeyEnv names.
func Check(ctx context.Context, cfg config.Model, getenv func(string) string) (string, error) {
	def := config.Default().Model
	if strings.TrimSpace(cfg.Name) == "" {
		cfg.Name = def.Name
	}
	if strings.TrimSpace(cfg.BaseURL) == "" {
		cfg.BaseURL = def.BaseURL
	}
	u, err := url.Parse(strings.TrimSpace(cfg.BaseURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("model.baseURL %q is not an http or https URL; set it to the server's "+
			"OpenAI-compatible address, such as %s", cfg.BaseURL, def.BaseURL)
	}
	base := strings.TrimSuffix(u.String(), "/")
	hc := &http.Client{Timeout: Timeout}
	names, err := list(ctx, hc, base, key(cfg.APIKeyEnv, getenv))
	if err != nil {
		return "", explain(err, base, cfg)
	}
	ollama := IsOllama(ctx, hc, base)
	if !Has(names, cfg.Name) {
		return "", errors.New(MissingMessage(cfg.Name, base, names, true, ollama))
	}
	kind := "an OpenAI-compatible server"
	if ollama {
		kind = "Ollama"
	}
	return fmt.Sprintf("%s answers at %s (%s) and has %s", kind, base, plural(len(names), "model"), cfg.Name), nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func key(envName string, getenv func(string) string) string {
	if envName == "" || getenv == nil {
		return ""
	}
	return strings.TrimSpace(getenv(envName))
}

// statusError is an HTTP answer other than 200 to GET /models.
type statusError struct {
	status int
	body   string
}

func (e *statusError) Error() string { return fmt.Sprintf("HTTP %d: %s", e.status, e.body) }

func list(ctx context.Context, hc *http.Client, base, apiKey string) ([]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/models", nil)
	if err != nil {
		return nil, err
	}
	if apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+apiKey)
	}
	res, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if res.StatusCode != http.StatusOK {
		return nil, &statusError{res.StatusCode, strings.Join(strings.Fields(string(body)), " ")}
	}
	var page struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &page); err != nil {
		return nil, fmt.Errorf("the list of models is not OpenAI's shape: %w", err)
	}
	var names []string
	for _, m := range page.Data {
		names = append(names, m.ID)
	}
	return names, nil
}

// explain words a failed GET /models as the model client would.
func explain(err error, base string, cfg config.Model) error {
	var opErr *net.OpError
	var se *statusError
	switch {
	case errors.As(err, &opErr) && opErr.Op == "dial":
		return fmt.Errorf("the model server at %s is not answering; start it (ollama serve) or set model.baseURL", base)
	case errors.As(err, &se) && (se.status == http.StatusUnauthorized || se.status == http.StatusForbidden):
		if cfg.APIKeyEnv == "" {
			return fmt.Errorf("the model server at %s wants an API key (%v); set model.apiKeyEnv to the name of "+
				"the environment variable that holds it", base, se)
		}
		return fmt.Errorf("the model server at %s refused the API key in %s (%v); check the key", base, cfg.APIKeyEnv, se)
	case errors.As(err, &se) && se.status == http.StatusNotFound:
		return fmt.Errorf("the server at %s has no /models endpoint (%v); check model.baseURL, which usually ends in /v1", base, se)
	case errors.As(err, &se):
		return fmt.Errorf("the model server at %s answered %v", base, se)
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return fmt.Errorf("the model server at %s did not answer within %s; it may be stuck or loading: check it", base, Timeout)
	}
	return fmt.Errorf("the model server at %s could not be asked for its models: %w", base, err)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
