package main

import (
	"testing"

	"github.com/wisp-sh/wisp/internal/model/modeltest"
)

// On a real terminal (issue 28 item 12): a / command wisp lacks is refused
// with the nearest one and never reaches the model; /model with a name the
// server lacks keeps the model.
func TestChatRefusesAnUnknownCommandAndAMissingModel(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	srv := modeltest.NewServer(t)
	srv.SetOllama(false)
	srv.SetModels("granite4.1:8b", "qwen3:8b")
	c := e.chatWith(srv, false)
	c.typeLine("/stauts")
	c.expect("· /stauts is not a wisp command: did you mean /status? (/help lists them; it was not sent to the model)")
	c.typeLine("/model qwen3:9b")
	c.expect("· the model stays granite4.1:8b")
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("the model was asked %d times", n)
	}
}
