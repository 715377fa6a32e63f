package model_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/model"
	"github.com/wisp-sh/wisp/internal/model/modeltest"
)

func TestNewDefaultsToLocalOllama(t *testing.T) {
	c, err := model.New(config.Model{}, noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if c.Name() != "granite4.1:8b" || c.BaseURL() != "http://127.0.0.1:11434/v1" {
		t.Errorf("Name %q BaseURL %q, want granite4.1:8b at http://127.0.0.1:11434/v1", c.Name(), c.BaseURL())
	}
}

func TestNewRefusesABaseURLThatIsNotHTTP(t *testing.T) {
	for _, url := range []string{"127.0.0.1:11434", "ftp://host/v1", "http://"} {
		_, err := model.New(config.Model{BaseURL: url}, noEnv)
		if err == nil || !strings.Contains(err.Error(), "is not an http or https URL") {
			t.Errorf("New(%q) err = %v, want a refusal", url, err)
		}
	}
}

func TestTheAPIKeyComesFromTheNamedVariable(t *testing.T) {
	// The SDK would read these from the process; wisp reads only through getenv.
	t.Setenv("OPENAI_API_KEY", "sk-from-process")
	t.Setenv("OPENAI_ORG_ID", "org-from-process")
	env := map[string]string{"WISP_TEST_KEY": "sk-named"}
	tests := []struct{ keyEnv, want string }{
		{"WISP_TEST_KEY", "Bearer sk-named"},
		{"WISP_UNSET_KEY", "Bearer wisp-no-key"},
		{"", "Bearer wisp-no-key"},
	}
	for _, tt := range tests {
		srv := modeltest.NewServer(t, modeltest.Turn{})
		c, err := model.New(config.Model{BaseURL: srv.URL(), APIKeyEnv: tt.keyEnv}, func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Stream(t.Context(), ask("hi"), nil, nil); err != nil {
			t.Fatal(err)
		}
		r := srv.Requests()[0]
		if r.Authorization != tt.want {
			t.Errorf("apiKeyEnv %q sent %q, want %q", tt.keyEnv, r.Authorization, tt.want)
		}
		if strings.Contains(string(r.Body), "from-process") {
			t.Errorf("the request carries an OPENAI_* value from the process: %s", r.Body)
		}
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name   string
		models []string
		want   error
	}{
		{"the model is there", []string{"qwen3:8b", "granite4.1:8b"}, nil},
		{"the model is missing", []string{"qwen3:8b"}, model.ErrModelMissing},
		{"no tag means latest", []string{"granite4.1:latest"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := modeltest.NewServer(t)
			srv.SetModels(tt.models...)
			name := "granite4.1:8b"
			if tt.name == "no tag means latest" {
				name = "granite4.1"
			}
			c, err := model.New(config.Model{Name: name, BaseURL: srv.URL()}, noEnv)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Check(t.Context()); !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Errorf("Check = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestCheckSaysWhenTheServerIsDown(t *testing.T) {
	err := newClient(t, "http://"+closedPort(t)+"/v1").Check(t.Context())
	if !errors.Is(err, model.ErrServerDown) {
		t.Errorf("Check = %v, want ErrServerDown", err)
	}
}

func TestCheckPassesAServerWithoutAModelList(t *testing.T) {
	srv := modeltest.NewServer(t)
	root := strings.TrimSuffix(srv.URL(), "/v1") // every path 404s there
	if err := newClient(t, root).Check(t.Context()); err != nil {
		t.Errorf("Check = %v, want nil when the server cannot list models", err)
	}
}

func configFor(srv *modeltest.Server) config.Model {
	return config.Model{Name: "granite4.1:8b", BaseURL: srv.URL()}
}
