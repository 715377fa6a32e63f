package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/wisp-sh/wisp/internal/app"

	"github.com/spf13/cobra"
	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/pending"
	"github.com/wisp-sh/wisp/policy"
)

type runOptions struct {
	app.SessionOptions
	ask     bool
	yes     bool
	outside bool
	json    bool
	timeout time.Duration
	line    string
}

func newRunCmd(f *app.Factory) *cobra.Command {
	var opts runOptions
	cmd := &cobra.Command{
		Use:   "run [flags] -- LINE",
		Short: "Run a command line as the person, through the lists and the sandbox",
		Long: `Run LINE as a command you typed yourself (chat's ! and !!): the operator's
deny and allow lists apply, no risk check and no approval, and it runs in the
sandbox unless --outside-sandbox. Output streams to the terminal; afterwards a
note on stderr says what the sandbox refused, if anything. The exit status is
the command's; 3 means the lists denied it.

With several arguments after --, they are quoted and joined as a shell would
see them; one argument is the line as typed.`,
		Example: `  wisp run -- make test
  wisp run -- 'grep -r TODO . | wc -l'
  wisp run --outside-sandbox -- brew upgrade`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return app.UsageError{Err: fmt.Errorf("wisp run needs a command line; usage: %s", cmd.UseLine())}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.line = lineFromArgs(args)
			return runRun(cmd, f, opts)
		},
	}
	fl := cmd.Flags()
	fl.SetInterspersed(false) // flags after the line belong to the line
	fl.BoolVar(&opts.outside, "outside-sandbox", false, "run this one line outside the sandbox (the operator's switch allowing)")
	fl.BoolVar(&opts.ask, "ask", false, "send LINE through the gate as the model's command would be: risk, threshold, held approvals, a person asked (exit 4 if not approved)")
	fl.BoolVar(&opts.yes, "yes", false, "with --ask: approve what may be approved without a person (never a run outside the sandbox)")
	fl.BoolVar(&opts.json, "json", false, "print one JSON object with the outcome instead of streaming")
	fl.DurationVar(&opts.timeout, "timeout", 0, "end the command (and its processes) after this long, e.g. 30s; none by default")
	fl.BoolVar(&opts.Unsafe, "unsafe", false, "run without the sandbox (every run says so)")
	return cmd
}

// lineFromArgs: one argument is the line as typed; several are quoted and
// joined as a shell would see them.
func lineFromArgs(args []string) string {
	if len(args) == 1 {
		return args[0]
	}
	return policy.ShellJoin(args)
}

func runRun(cmd *cobra.Command, f *app.Factory, opts runOptions) error {
	s, err := app.NewSession(f, opts.SessionOptions)
	if err != nil {
		return err
	}
	defer s.Close()
	s.Runner.OneShot = true // one command: a served helper would only add its own start
	req := runner.Request{
		Line: opts.line, Origin: runner.Person, OutsideSandbox: opts.outside, Timeout: opts.timeout,
		InSandboxHint: "run it without --outside-sandbox to run it in the sandbox",
	}
	if opts.ask {
		// The model's terms: the gate, stdin from /dev/null, the model's limit.
		req.Origin = runner.Model
		s.WireGate(app.GateOptions{Face: pending.FaceRun, Terminal: !opts.json, Yes: opts.yes})
	}
	if !opts.json {
		req.Live = f.Stdout
		if !opts.ask {
			req.Stdin = f.Stdin
			if IsTerminal(f.Stdin) && IsTerminal(f.Stdout) {
				if t := runner.OpenTerminal(); t != nil {
					defer t.Close()
					req.Terminal = t
				}
			}
		}
		if opts.outside && !opts.ask && s.Runner.Resolve(true) == runner.ModeOutside {
			fmt.Fprintln(f.Stderr, runner.OutsideTypedNote)
		}
	}
	res, err := s.Runner.Run(cmd.Context(), req)
	if err != nil {
		return err
	}
	if opts.json {
		return printRunJSON(f, res)
	}
	return finishRun(f, res)
}

// finishRun prints the person's notes on stderr and passes on the status.
func finishRun(f *app.Factory, res runner.Result) error {
	switch {
	case res.Denied:
		return &ExitError{Code: ExitDenied, Err: fmt.Errorf("%s", strings.TrimPrefix(res.Message, "error: "))}
	case res.NotApproved:
		return &ExitError{Code: ExitNotApproved, Err: fmt.Errorf("%s", strings.TrimPrefix(res.Message, "error: "))}
	case res.Unavailable:
		return WithHint(fmt.Errorf("%s", strings.TrimPrefix(res.Message, "error: ")),
			"run wisp doctor to see what the sandbox needs here")
	}
	for _, note := range personNotes(res) {
		fmt.Fprintln(f.Stderr, note)
	}
	if res.ExitCode != 0 {
		return &ExitError{Code: shellStatus(res.ExitCode), Quiet: true}
	}
	return nil
}

// personNotes are the `·` lines a person reads after their command.
func personNotes(res runner.Result) []string {
	var notes []string
	switch {
	case res.TimedOut:
		notes = append(notes, "· "+strings.Trim(res.StatusLine(), "[]"))
	case res.Canceled:
		notes = append(notes, "· stopped")
	}
	if res.PersonNote != "" {
		notes = append(notes, res.PersonNote)
	} else if res.SandboxLine != "" && !res.OutsideSandbox && res.Refusal.Verdict == "" {
		notes = append(notes, "· "+strings.TrimPrefix(res.SandboxLine, "sandbox: "))
	}
	return notes
}

func shellStatus(code int) int {
	if code < 0 || code > 255 {
		return ExitFailure
	}
	return code
}

type runJSON struct {
	Line           string   `json:"line"`
	Ran            bool     `json:"ran"`
	Denied         bool     `json:"denied,omitempty"`
	NotApproved    bool     `json:"notApproved,omitempty"`
	Message        string   `json:"message,omitempty"`
	ExitCode       int      `json:"exitCode"`
	TimedOut       bool     `json:"timedOut"`
	Sandbox        string   `json:"sandbox,omitempty"`
	OutsideSandbox bool     `json:"outsideSandbox"`
	Verdict        string   `json:"verdict,omitempty"`
	Paths          []string `json:"paths,omitempty"`
	Note           string   `json:"note,omitempty"`
	SandboxLine    string   `json:"sandboxLine,omitempty"`
	Output         string   `json:"output"`
	OutputID       string   `json:"outputId,omitempty"`
	OutputBytes    int64    `json:"outputBytes"`
}

func printRunJSON(f *app.Factory, res runner.Result) error {
	out := runJSON{
		Line: res.Line, Ran: res.Ran, Denied: res.Denied, NotApproved: res.NotApproved, Message: res.Message,
		ExitCode: res.ExitCode, TimedOut: res.TimedOut, Sandbox: res.Sandbox,
		OutsideSandbox: res.OutsideSandbox, Verdict: string(res.Refusal.Verdict),
		Paths: res.Refusal.Paths, Note: res.PersonNote, SandboxLine: res.SandboxLine,
		Output: res.Output, OutputID: res.OutputID, OutputBytes: res.OutputBytes,
	}
	enc := json.NewEncoder(f.Stdout)
	if err := enc.Encode(out); err != nil {
		return err
	}
	switch {
	case res.Denied:
		return &ExitError{Code: ExitDenied, Quiet: true}
	case res.NotApproved:
		return &ExitError{Code: ExitNotApproved, Quiet: true}
	case !res.Ran:
		return &ExitError{Code: ExitFailure, Quiet: true}
	case res.ExitCode != 0:
		return &ExitError{Code: shellStatus(res.ExitCode), Quiet: true}
	}
	return nil
}
