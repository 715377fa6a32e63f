package cli

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/wisp-sh/wisp/internal/app"

	"github.com/spf13/cobra"
	"github.com/wisp-sh/wisp/audit"
	"github.com/wisp-sh/wisp/internal/render"
	"github.com/wisp-sh/wisp/internal/visible"
)

// logsOptions are the flags of `wisp logs`.
type logsOptions struct {
	json   bool
	follow bool
	event  string
	since  string
}

func newLogsCmd(f *app.Factory) *cobra.Command {
	var opts logsOptions
	cmd := &cobra.Command{
		Use:   "logs [--json] [--follow] [--event NAME] [--since DURATION]",
		Short: "Show the audit log: what was decided, asked, approved and run",
		Long: `Show wisp's audit log (logs/audit.jsonl in wisp's home), oldest first, one
event a line: the time, the event, its main fields, and the command after "$".

The events: ` + strings.Join(audit.EventNames, ", ") + `.
--since takes a Go duration (90m, 1h30m) or days (2d), counted back from now,
or a time (2026-10-14T12:00:00Z). --json prints the lines as written, for jq.
--follow waits for new events until Ctrl-C; with --since it shows those first.`,
		Args: NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runLogs(cmd.Context(), f, opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.json, "json", false, "print each event's JSON line as written")
	fl.BoolVarP(&opts.follow, "follow", "f", false, "wait for new events until interrupted")
	fl.StringVar(&opts.event, "event", "", "show only this event (e.g. command.outcome)")
	fl.StringVar(&opts.since, "since", "", "show only events from this long ago on (e.g. 1h, 2d)")
	return cmd
}

func runLogs(ctx context.Context, f *app.Factory, opts logsOptions) error {
	home, err := f.Home()
	if err != nil {
		return err
	}
	filter, err := logsFilter(opts, f.Now())
	if err != nil {
		return err
	}
	p := &logsPrinter{f: f, json: opts.json, tty: IsTerminal(f.Stdout)}
	filter.OnMalformed = p.malformed
	if opts.follow {
		err = audit.Follow(ctx, home, filter, p.print)
	} else {
		err = audit.Read(home, filter, p.print)
	}
	p.reportMalformed()
	if errors.Is(err, audit.ErrNoLog) {
		fmt.Fprintf(f.Stderr, "wisp: no audit log yet: nothing has been recorded in %s\n", home.AuditFile())
		return nil
	}
	if err == nil && p.shown == 0 && !opts.follow {
		p.reportNone(opts)
	}
	return err
}

func logsFilter(opts logsOptions, now time.Time) (audit.Filter, error) {
	var f audit.Filter
	if opts.event != "" {
		if err := audit.CheckEventName(opts.event); err != nil {
			return f, app.UsageError{Err: fmt.Errorf("--event: %w", err)}
		}
		f.Event = opts.event
	}
	if opts.since != "" {
		since, err := parseSince(opts.since, now)
		if err != nil {
			return f, app.UsageError{Err: err}
		}
		f.Since = since
	}
	return f, nil
}

// days matches the day counts a Go duration lacks: 2d, 1.5d.
var days = regexp.MustCompile(`^(\d+(?:\.\d+)?)d`)

// parseSince reads --since: a duration back from now (Go's units plus d
// for days, as in 2d12h) or a time (RFC 3339, or a date).
func parseSince(s string, now time.Time) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	d, err := parseDays(s)
	if err != nil || d < 0 {
		return time.Time{}, fmt.Errorf("--since %q is not a duration such as 30m, 1h or 2d, nor a time such as 2026-10-14T12:00:00Z", s)
	}
	return now.Add(-d), nil
}

func parseDays(s string) (time.Duration, error) {
	m := days.FindStringSubmatch(s)
	if m == nil {
		return time.ParseDuration(s)
	}
	n, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, err
	}
	d := time.Duration(n * 24 * float64(time.Hour))
	if rest := s[len(m[0]):]; rest != "" {
		more, err := time.ParseDuration(rest)
		if err != nil {
			return 0, err
		}
		d += more
	}
	return d, nil
}

// logsPrinter writes the records, and counts what it shows and skips.
type logsPrinter struct {
	f       *app.Factory
	json    bool
	tty     bool // --json on a terminal: invisible characters as \u escapes
	shown   int
	skipped int
	first   audit.Malformed
}

func (p *logsPrinter) print(r audit.Record) error {
	p.shown++
	if p.json {
		raw := string(r.Raw)
		if p.tty {
			raw = jsonVisible(raw)
		}
		_, err := fmt.Fprintf(p.f.Stdout, "%s\n", raw)
		return err
	}
	// The summary holds commands and paths others wrote: rendered, so
	// an escape in them cannot repaint the terminal or forge a line.
	_, err := fmt.Fprintf(p.f.Stdout, "%s  %-22s  %s\n", r.Time.Local().Format("2006-01-02 15:04:05"),
		render.Line(r.Event), render.Line(r.Summary()))
	return err
}

func (p *logsPrinter) malformed(m audit.Malformed) {
	if p.skipped == 0 {
		p.first = m
	}
	p.skipped++
}

func (p *logsPrinter) reportMalformed() {
	if p.skipped > 0 {
		fmt.Fprintf(p.f.Stderr, "wisp: warning: skipped %d malformed line(s) of the audit log, the first at %s\n", p.skipped, p.first)
	}
}

func (p *logsPrinter) reportNone(opts logsOptions) {
	if opts.event == "" && opts.since == "" {
		fmt.Fprintln(p.f.Stderr, "wisp: the audit log is empty: no events have been recorded")
		return
	}
	var what []string
	if opts.event != "" {
		what = append(what, opts.event+" events")
	}
	if opts.since != "" {
		what = append(what, "since "+opts.since)
	}
	fmt.Fprintf(p.f.Stderr, "wisp: no events match (%s)\n", strings.Join(what, ", "))
}

// jsonVisible writes the characters a terminal would obey or hide (C1
// controls, bidirectional and zero-width characters, which JSON may carry
// as they are) as \u escapes: the line stays the same JSON, and a person
// reading it on a terminal sees them.
func jsonVisible(line string) string {
	if !strings.ContainsFunc(line, jsonHidden) {
		return line
	}
	var b strings.Builder
	for _, r := range line {
		if !jsonHidden(r) {
			b.WriteRune(r)
			continue
		}
		for _, u := range utf16.Encode([]rune{r}) {
			fmt.Fprintf(&b, `\u%04x`, u)
		}
	}
	return b.String()
}

// jsonHidden is what jsonVisible escapes: JSON's whitespace between
// tokens stays (inside a string, the encoder escaped it already).
func jsonHidden(r rune) bool { return r != '\n' && r != '\t' && r != '\r' && visible.Hidden(r) }
