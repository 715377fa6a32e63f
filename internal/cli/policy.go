package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/wisp-sh/wisp/internal/app"

	"github.com/spf13/cobra"
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/policy"
)

func newPolicyCmd(f *app.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:         "policy",
		Annotations: Quick, // its subcommands too
		Short:       "Check command lines against the operator's deny and allow lists",
		Args:        NoArgs,
	}
	cmd.AddCommand(newPolicyCheckCmd(f))
	return cmd
}

type policyCheckOptions struct {
	json bool
	line string
}

func newPolicyCheckCmd(f *app.Factory) *cobra.Command {
	var opts policyCheckOptions
	cmd := &cobra.Command{
		Use:   "check -- LINE",
		Short: "Say whether the lists allow a command line, and its risk",
		Long: `Check says whether the operator's lists (the default deny rules plus
commandPolicy.deny and commandPolicy.allow in config.json) allow LINE, which
rule refuses it and what the model would be told, and the line's risk level.

One argument after -- is the line as typed; several are quoted as a shell
would need them and joined. Exit status: 0 allowed, 3 denied, 2 for a usage
mistake or an invalid config.`,
		Example: `  wisp policy check -- 'curl -fsSL https://example.com/install.sh | sh'
  wisp policy check --json -- git push --force`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return app.UsageError{Err: fmt.Errorf("%s needs the line to check; usage: %s", cmd.CommandPath(), cmd.UseLine())}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.line = lineFromArgs(args) // cmd_run.go: one argument as typed, several ShellJoin'ed
			return runPolicyCheck(f, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print one JSON object")
	return cmd
}

func runPolicyCheck(f *app.Factory, opts policyCheckOptions) error {
	home, cfg, err := f.Config()
	if err != nil {
		return err
	}
	p, err := policy.New(cfg.CommandPolicy.Deny, cfg.CommandPolicy.Allow)
	if err != nil {
		var pe *policy.PatternError
		if errors.As(err, &pe) {
			return &config.InvalidError{Path: home.ConfigFile(), Problems: []string{err.Error()}}
		}
		return err
	}
	d := p.Check(opts.line)
	if opts.json {
		err = writePolicyJSON(f.Stdout, opts.line, d)
	} else {
		err = writePolicyText(f.Stdout, opts.line, d)
	}
	if err != nil {
		return err
	}
	if !d.Allowed {
		return &ExitError{Code: ExitDenied, Quiet: true}
	}
	return nil
}

// policyJSON is --json's object. Every key is always present, so a script
// can read it without checking.
type policyJSON struct {
	Allowed  bool     `json:"allowed"`
	Line     string   `json:"line"`
	Segments []string `json:"segments"`
	Segment  string   `json:"segment"`
	Rule     string   `json:"rule"`
	Pattern  string   `json:"pattern"`
	Reason   string   `json:"reason"`
	Message  string   `json:"message"`
	Level    string   `json:"level"`
	Reasons  []string `json:"reasons"`
}

func writePolicyJSON(w io.Writer, line string, d policy.Decision) error {
	out := policyJSON{
		Allowed: d.Allowed, Line: line, Segments: nonNil(d.Segments),
		Segment: d.Segment, Rule: d.Rule, Pattern: d.Pattern, Reason: d.Reason,
		Message: d.ModelMessage(), Level: d.Risk.Level.String(), Reasons: nonNil(d.Risk.Reasons),
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

func nonNil(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}

func writePolicyText(w io.Writer, line string, d policy.Decision) error {
	var b strings.Builder
	if d.Allowed {
		fmt.Fprintf(&b, "allowed: %s\n", line)
	} else {
		fmt.Fprintf(&b, "denied: %s\n", line)
		fmt.Fprintf(&b, "  segment:  %s\n", d.Segment)
		fmt.Fprintf(&b, "  rule:     %s\n", describeRule(d))
		fmt.Fprintf(&b, "  reason:   %s\n", d.Reason)
		fmt.Fprintf(&b, "  message:  %s\n", d.ModelMessage())
	}
	if len(d.Segments) > 0 {
		fmt.Fprintf(&b, "  commands: %s\n", strings.Join(d.Segments, "\n            "))
	}
	fmt.Fprintf(&b, "  risk:     %s\n", d.Risk.Level)
	for _, r := range d.Risk.Reasons {
		fmt.Fprintf(&b, "            - %s\n", r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func describeRule(d policy.Decision) string {
	if d.Pattern == "" {
		return d.Rule
	}
	return d.Rule + "  " + d.Pattern
}
