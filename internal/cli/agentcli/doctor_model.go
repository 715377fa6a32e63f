package agentcli

import (
	"context"

	"github.com/wisp-sh/wisp/internal/app"

	"github.com/wisp-sh/wisp/internal/model/probe"
)

// doctorWarning is a doctor line that is said as WARN and does not fail
// doctor: what it finds stops the chat, not wisp's commands.
type doctorWarning struct{ err error }

func (w doctorWarning) Error() string { return w.err.Error() }

// doctorModel is the model line: the server at model.baseURL answers and
// has model.name (probe, plain net/http: the lean wisp runs doctor). A
// server that is down or lacks the model is a warning: wisp run, the
// approvals and the sandbox work without it; chat and respond do not.
func doctorModel(f *app.Factory, homeErr error) (string, error) {
	if homeErr != nil {
		return "", errHomeUnsafe
	}
	_, cfg, err := f.Config()
	if err != nil {
		return "", err
	}
	line, err := probe.Check(context.Background(), cfg.Model, f.Getenv)
	if err != nil {
		return "", doctorWarning{err}
	}
	return line, nil
}
