package probe_test

import (
	"context"
	"net"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/model/modeltest"
	"github.com/wisp-sh/wisp/internal/model/probe"
)

func cfgFor(url, name string) config.Model { return config.Model{Name: name, BaseURL: url} }

// What doctor says of the model server: it answers and has the model;
// a missing one names what it has, the pull hint only on Ollama; a
// server that is down says so.
func TestCheck(t *testing.T) {
	ctx := context.Background()
	srv := modeltest.NewServer(t)
	srv.SetModels("granite4.1:8b", "qwen3:8b")
	if got, err := probe.Check(ctx, cfgFor(srv.URL(), "granite4.1:8b"), nil); err != nil ||
		got != "Ollama answers at "+srv.URL()+" (2 models) and has granite4.1:8b" {
		t.Errorf("ok: %q, %v", got, err)
	}
	_, err := probe.Check(ctx, cfgFor(srv.URL(), "mistral"), nil)
	if err == nil || err.Error() != "the model mistral is not on the server at "+srv.URL()+
		"; it has granite4.1:8b, qwen3:8b; run: ollama pull mistral, or set model.name to one it has" {
		t.Errorf("missing on Ollama: %v", err)
	}
	srv.SetOllama(false)
	_, err = probe.Check(ctx, cfgFor(srv.URL(), "mistral"), nil)
	if err == nil || strings.Contains(err.Error(), "ollama pull") || !strings.Contains(err.Error(), "wisp config set model.name NAME") {
		t.Errorf("missing elsewhere: %v", err)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	down := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	if _, err := probe.Check(ctx, cfgFor(down, ""), nil); err == nil ||
		err.Error() != "the model server at "+down+" is not answering; start it (ollama serve) or set model.baseURL" {
		t.Errorf("down: %v", err)
	}
}
