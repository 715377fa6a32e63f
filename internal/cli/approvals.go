package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/wisp-sh/wisp/internal/app"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/wisp-sh/wisp/audit"
	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/internal/render"
	"github.com/wisp-sh/wisp/pending"
)

func newApprovalsCmd(f *app.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:         "approvals",
		Annotations: Quick, // its subcommands too
		Short:       "Answer waiting approval requests, and show or drop held approvals",
		Long: `Requests filed out of band (approval.outOfBand) wait in ~/.wisp/pending/
until a person answers them here or in wisp-bar. Each answer is bound by
SHA-256 to the exact request shown, so an edited request is refused.

A request to run OUTSIDE the sandbox is approved once at most: a wider
scope is taken as once.`,
	}
	cmd.AddCommand(newApprovalsPendingCmd(f), newApprovalsAnswerCmd(f, "approve"),
		newApprovalsAnswerCmd(f, "deny"), newApprovalsListCmd(f), newApprovalsForgetCmd(f))
	return cmd
}

func newApprovalsPendingCmd(f *app.Factory) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "pending",
		Short: "List the requests waiting for an answer, newest first",
		Args:  NoArgs,
		RunE: func(*cobra.Command, []string) error {
			ch, err := f.Channel()
			if err != nil {
				return err
			}
			list, err := ch.List()
			if err != nil {
				return err
			}
			if asJSON {
				return printPendingJSON(f.Stdout, list, IsTerminal(f.Stdout))
			}
			return printPending(f.Stdout, list, f.Now(), IsTerminal(f.Stdout))
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array of the requests")
	return cmd
}

// IsTerminal reports whether a stream is a terminal. It reads the fd with
// File.Fd, which makes that file blocking: only ever for the process's own
// standard streams.
func IsTerminal(s any) bool {
	f, ok := s.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// printPending is the table. Its SANDBOX column says, terminal or not,
// whether a request would run confined or OUTSIDE the sandbox, so a script
// reading it piped never loses that. On a terminal an outside-sandbox line
// is also prefixed OUTSIDE THE SANDBOX: (docs/decisions.md, D19); piped, the command
// column stays the command.
func printPending(w io.Writer, list []pending.Pending, now time.Time, tty bool) error {
	if len(list) == 0 {
		_, err := fmt.Fprintln(w, "no requests are waiting")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tDIGEST\tLEVEL\tSANDBOX\tAGE\tCWD\tCOMMAND")
	for _, p := range list {
		r := p.Request
		// The line comes from a file: escapes, newlines and bidi
		// overrides are shown, never obeyed, so nothing repaints the row.
		line := render.Line(r.Command)
		if tty && r.OutsideSandbox {
			line = "OUTSIDE THE SANDBOX: " + line
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, pending.Digest(p.Binding), r.Level,
			sandboxColumn(r), age(now.Sub(r.RequestedAt)), render.Line(r.Cwd), line)
	}
	return tw.Flush()
}

// sandboxColumn is where the request would run: confined, or OUTSIDE.
func sandboxColumn(r pending.Request) string {
	if r.OutsideSandbox {
		return "OUTSIDE"
	}
	return "confined"
}

func age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	}
	return fmt.Sprintf("%dh", int(d.Hours()))
}

type pendingJSON struct {
	pending.Request
	Binding string `json:"binding"`
	Digest  string `json:"digest"`
}

// printPendingJSON writes the requests as JSON; on a terminal, with the
// characters it would obey or hide as \u escapes (jsonVisible).
func printPendingJSON(w io.Writer, list []pending.Pending, tty bool) error {
	out := make([]pendingJSON, 0, len(list))
	for _, p := range list {
		out = append(out, pendingJSON{p.Request, p.Binding, pending.Digest(p.Binding)})
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	text := b.String()
	if tty {
		text = jsonVisible(text)
	}
	_, err := io.WriteString(w, text)
	return err
}

func newApprovalsAnswerCmd(f *app.Factory, decision string) *cobra.Command {
	var scope string
	cmd := &cobra.Command{
		Use: decision + " ID|DIGEST",
		Long: "Answer the request that ID names: its whole id, a unique prefix of it (at least 4\n" +
			"characters), or the 8-character digest the banner, the menu and wisp approvals\n" +
			"pending show. A prefix that names several requests lists them and exits 2.",
		Short: map[string]string{"approve": "Approve a waiting request", "deny": "Deny a waiting request"}[decision],
		Args:  ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			return runApprovalsAnswer(f, args[0], decision, scope)
		},
	}
	if decision == "approve" {
		cmd.Flags().StringVar(&scope, "scope", "once", "once, session, project or always (outside the sandbox: once only);\n"+
			"session-prefix, project-prefix or always-prefix hold the prefix the request names (go test …)")
	}
	return cmd
}

func runApprovalsAnswer(f *app.Factory, ref, decision, scope string) error {
	if _, err := approval.ParseScope(strings.TrimSuffix(scope, pending.PrefixSuffix)); decision == "approve" && err != nil {
		return app.UsageError{Err: err}
	}
	ch, err := f.Channel()
	if err != nil {
		return err
	}
	p, err := findRequest(f, ch, ref)
	if err != nil {
		return err
	}
	ans, err := ch.Answer(p, decision, scope, "wisp approvals")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(f.Stdout, answerSummary(p.Request, ans, scope))
	return err
}

// findRequest takes what the person saw, a unique id prefix or the
// digest, to the one waiting request it names. Not waiting, the audit log
// tells a request that was filed (an approval.pending event with that id or
// digest) and has ended from one that never was.
func findRequest(f *app.Factory, ch *pending.Channel, ref string) (pending.Pending, error) {
	ref, err := pending.NormalRef(ref)
	if err != nil {
		return pending.Pending{}, app.UsageError{Err: err}
	}
	p, err := ch.Find(ref)
	var amb *pending.AmbiguousError
	switch {
	case errors.As(err, &amb):
		return p, app.UsageError{Err: WithHint(errors.New(ambiguous(amb)),
			"give more characters of the id, or the whole id, as wisp approvals pending shows it")}
	case errors.Is(err, pending.ErrNotWaiting):
		return p, notWaiting(f, ref)
	}
	return p, err
}

// ambiguous lists the candidates, each line shown and never obeyed.
func ambiguous(amb *pending.AmbiguousError) string {
	var b strings.Builder
	b.WriteString(amb.Error() + ":")
	for _, c := range amb.Candidates {
		fmt.Fprintf(&b, "\n  %s  %s  %s", c.Request.ID, pending.Digest(c.Binding), render.Line(c.Request.Command))
	}
	return b.String()
}

// notWaiting says whether ref was ever filed, by the audit log.
func notWaiting(f *app.Factory, ref string) error {
	filed, err := everFiled(f, ref)
	if err != nil {
		return fmt.Errorf("request %s is not waiting, and the audit log could not be read to say whether it ever was: %w", ref, err)
	}
	if filed != "" {
		return WithHint(fmt.Errorf("request %s: %w", filed, pending.ErrGone), "wisp logs --event approval.decided says how it ended")
	}
	return WithHint(fmt.Errorf("no request %s was ever filed: no waiting request and no approval.pending event in the audit log has that id or digest", ref),
		"run wisp approvals pending to see what waits")
}

// everFiled returns the id of the request ref named in an approval.pending
// event, or "" when none did. No log yet means none was filed.
func everFiled(f *app.Factory, ref string) (string, error) {
	home, err := f.Home()
	if err != nil {
		return "", err
	}
	found := ""
	err = audit.Read(home, audit.Filter{Event: audit.EventApprovalPending}, func(r audit.Record) error {
		id, _ := r.Fields["id"].(string)
		digest, _ := r.Fields["digest"].(string)
		if strings.HasPrefix(id, ref) || (len(ref) == pending.DigestLen && digest == ref) {
			found = id
		}
		return nil
	})
	if errors.Is(err, audit.ErrNoLog) {
		return "", nil
	}
	return found, err
}

// answerSummary echoes what was decided, with decision D17's wording for a
// scope taken as once.
func answerSummary(r pending.Request, ans pending.Answer, asked string) string {
	switch {
	case ans.Decision == pending.DecisionDeny:
		return "denied: " + render.Line(r.Command)
	case r.OutsideSandbox && asked != "" && asked != pending.ScopeOnce:
		return approval.DowngradeNote(approval.Scope(asked), render.Line(r.Command))
	case r.OutsideSandbox:
		return "approved once, outside the sandbox: " + render.Line(r.Command)
	}
	if base, ok := strings.CutSuffix(ans.Scope, pending.PrefixSuffix); ok {
		return fmt.Sprintf("approved %s, holding %s: %s", base, render.Line(pending.HeldPrefix(r)), render.Line(r.Command))
	}
	return fmt.Sprintf("approved %s: %s", ans.Scope, render.Line(r.Command))
}

func newApprovalsListCmd(f *app.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "Show the held project and always approvals (approvals.json)",
		Long: "Show the held project and always approvals kept in approvals.json: each is a line, held\n" +
			"exactly, or a prefix such as \"go test …\", which holds every go test command whatever its\n" +
			"other arguments. Session approvals live only as long as the wisp that holds them.",
		Args: NoArgs,
		RunE: func(*cobra.Command, []string) error {
			home, err := f.Home()
			if err != nil {
				return err
			}
			entries, err := approval.NewHeld(home).List()
			if err != nil {
				return err
			}
			if len(entries) == 0 {
				_, err := fmt.Fprintln(f.Stdout, "no approvals are held")
				return err
			}
			for _, e := range entries {
				where := "everywhere"
				if e.Scope == approval.Project {
					where = e.Project
				}
				kind := "line"
				if e.Prefix {
					kind = "prefix"
				}
				fmt.Fprintf(f.Stdout, "%-7s %-6s %s  (%s)\n", e.Scope, kind, render.Line(e.Line), render.Line(where))
			}
			return nil
		},
	}
}

func newApprovalsForgetCmd(f *app.Factory) *cobra.Command {
	var all bool
	cmd := &cobra.Command{
		Use:   "forget LINE | PREFIX… | --all",
		Short: "Drop held approvals of LINE or of a prefix, or all of them",
		Long: "Drop the held approvals of LINE, exactly as `wisp approvals list` shows it. A prefix is\n" +
			"named with its mark: 'go test …', or 'go test ...' with three dots.",
		RunE: func(_ *cobra.Command, args []string) error {
			if all == (len(args) == 1) || len(args) > 1 {
				return app.UsageError{Err: errors.New("wisp approvals forget takes one LINE, or --all")}
			}
			home, err := f.Home()
			if err != nil {
				return err
			}
			line := ""
			if len(args) == 1 {
				line = prefixTyped(args[0])
			}
			n, err := approval.NewHeld(home).Forget(line, all)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(f.Stdout, "forgot %d held approval(s)\n", n)
			return err
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "drop every held approval")
	return cmd
}

// prefixTyped reads a prefix typed with three dots ("go test ...") as the
// mark it is held with ("go test …").
func prefixTyped(arg string) string {
	if words, ok := strings.CutSuffix(arg, "..."); ok && strings.TrimSpace(words) != "" {
		return approval.PrefixEntry(strings.TrimRight(words, " "))
	}
	return arg
}
