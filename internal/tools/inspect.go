package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/wisp-sh/wisp/internal/runner"
)

// inspectBound is the most inspect returns at once (docs/decisions.md, D7).
const inspectBound = 4 << 10

type inspectArgs struct {
	What   string `json:"what"`
	ID     string `json:"id"`
	Offset int64  `json:"offset"`
}

func (tb *Toolbox) inspect(arguments string) Output {
	var a inspectArgs
	if err := decodeArgs(arguments, &a); err != nil {
		return Output{Text: badArgs("inspect", err, `{"what": "limits"}`)}
	}
	switch a.What {
	case "config":
		return Output{Text: ConfigView(tb.Runner.Config)}
	case "limits":
		return Output{Text: tb.Limits()}
	case "output":
		return Output{Text: tb.outputView(a.ID, a.Offset)}
	}
	return Output{Text: badArgs("inspect", fmt.Errorf("what must be config, limits or output, not %q", a.What), `{"what": "config"}`)}
}

// ConfigView is the configuration as the model may see it, within 4 KiB:
// pretty JSON when that fits, compact JSON when it does not (docs/decisions.md, D7).
func ConfigView(cfg any) string {
	pretty, _ := json.MarshalIndent(cfg, "", "  ")
	if len(pretty) <= inspectBound {
		return string(pretty)
	}
	compact, _ := json.Marshal(cfg)
	if len(compact) <= inspectBound {
		return string(compact)
	}
	return string(compact[:inspectBound-40]) + "… [cut at 4 KiB]"
}

// Limits is the limits text: where commands may write, their time and
// output limits, and what outsideSandbox does here (docs/decisions.md, D14).
func (tb *Toolbox) Limits() string {
	r := tb.Runner
	var b strings.Builder
	if r.Config.CommandPolicy.Sandbox.Enabled && !r.Unsafe {
		fmt.Fprintf(&b, "Commands run in a sandbox and may write only under: %s.\n", strings.Join(r.Spec.Roots, ", "))
		b.WriteString(r.NetworkLimits())
		b.WriteString(secretsLimits(r))
	} else {
		b.WriteString("The sandbox is off here: commands run unconfined.\n")
	}
	fmt.Fprintf(&b, "Time limit: %d s a command (timeoutSeconds changes it for one command).\n", r.Config.Limits.CommandTimeoutSeconds)
	fmt.Fprintf(&b, "Output: you see at most %d bytes, head and tail; the whole output is kept (inspect what=output).\n", r.Config.Limits.OutputBytes)
	b.WriteString("outsideSandbox: " + outsideText(r.Resolve(true)))
	return b.String()
}

func outsideText(m runner.Mode) string {
	switch m {
	case runner.ModeRefused:
		return "turned off here (commandPolicy.sandbox.allowOutsideSandbox is false); every such request is refused."
	case runner.ModeSandboxOff:
		return "changes nothing: the sandbox is off here."
	case runner.ModeNested:
		return "changes nothing: wisp runs inside another sandbox, which confines every command."
	}
	return "asks the person to run that one command outside the sandbox; they approve each run, and nothing is remembered."
}

func (tb *Toolbox) outputView(id string, offset int64) string {
	if tb.Runner.Store == nil {
		return "error: there is no output store here"
	}
	data, err := tb.Runner.Store.Read(id, offset, inspectBound)
	if err != nil {
		return "error: " + err.Error()
	}
	if len(data) == 0 {
		return fmt.Sprintf("[output %s has nothing from byte %d on]", id, offset)
	}
	var b bytes.Buffer
	b.Write(data)
	end := offset + int64(len(data))
	fmt.Fprintf(&b, "\n[bytes %d to %d of output %s; for more: inspect what=output id=%s offset=%d]", offset, end, id, id, end)
	return b.String()
}
