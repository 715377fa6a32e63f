package netproxy

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
)

// Refusal is one host refused to a command, for the sandbox line the
// model reads: `sandbox: network to HOST was refused (REASON)`.
type Refusal struct {
	Host   string
	Port   int
	Reason string
}

// Reasons a host is refused, as the 403's body and the sandbox line say.
const (
	ReasonDenied   = "in deniedDomains"
	ReasonUnlisted = "not in allowedDomains"
	ReasonDeclined = "not in allowedDomains; the person declined"
	ReasonNoOne    = "not in allowedDomains; no one could be asked"
	ReasonTooMany  = "not in allowedDomains; the command asked about too many hosts already"
	reasonBadHost  = "not a host name"
)

// MaxQuestions is how many hosts one command may have a person asked
// about; past it, another host is refused unasked, so a command cannot
// bury the person under questions.
const MaxQuestions = 10

// command is one command's run, as Begin announced it.
type command struct {
	id, line string
	ctx      context.Context
	cancel   context.CancelFunc
	once     map[string]Answer // host:port -> the answer for this command's connections
	asked    int               // questions put to a person for it
	refused  []Refusal
}

var errTooMany = errors.New("too many hosts asked about for one command")

// asked is a question being asked, which connections to the same host for
// the same command wait on rather than ask again.
type asked struct {
	done chan struct{}
	ans  Answer
	err  error
}

// Begin says that command id (line) runs now: the connections that come
// until its end are its own, asked about in its name, under ctx (the
// run's: a face that asks may find its session there, and a cancelled
// run withdraws its questions). The returned func ends it, withdraws what
// is still asked for it, and returns the hosts refused to it.
func (p *Proxy) Begin(ctx context.Context, id, line string) (end func() []Refusal) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(p.ctx, cancel) // the proxy's end ends it too
	c := &command{id: id, line: line, ctx: ctx, cancel: cancel, once: map[string]Answer{}}
	p.mu.Lock()
	p.commands[id] = c
	p.current = c
	p.mu.Unlock()
	return func() []Refusal {
		stop()
		cancel()
		p.mu.Lock()
		defer p.mu.Unlock()
		delete(p.commands, id)
		if p.current == c {
			p.current = nil
		}
		return c.refused
	}
}

// allow decides whether a connection to host:port may be made, asking a
// person about a host in neither list. It returns the normalized host and
// why it was refused ("" when allowed).
func (p *Proxy) allow(host string, port int) (string, string) {
	h, err := NormalizeHost(host)
	if err != nil {
		return host, reasonBadHost
	}
	cmd := p.running()
	d := Decision{Host: h, Port: port, CommandID: cmd.id, Command: cmd.line}
	switch p.opts.Rules.Match(h, port) {
	case Allowed:
		d.Allowed, d.By = true, "allowedDomains"
	case Denied:
		d.By, d.Reason = "deniedDomains", ReasonDenied
	default:
		p.decideUnlisted(cmd, &d)
	}
	p.record(cmd, d)
	return h, d.Reason
}

// running is the command a new connection belongs to; between commands
// (a background process of an earlier one), a command of no id whose
// questions last until the proxy closes.
func (p *Proxy) running() *command {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.current != nil {
		return p.current
	}
	return &command{ctx: p.ctx, once: map[string]Answer{}}
}

func (p *Proxy) decideUnlisted(cmd *command, d *Decision) {
	if p.opts.Ask == nil {
		d.By, d.Reason = "askForHosts", ReasonUnlisted
		return
	}
	ans, err := p.ask(cmd, Question{Host: d.Host, Port: d.Port, Command: cmd.line, CommandID: cmd.id})
	d.By, d.Scope, d.Allowed = ans.By, ans.Scope, ans.Allowed && err == nil
	switch {
	case errors.Is(err, errTooMany):
		d.By, d.Reason = "netproxy", ReasonTooMany
	case err != nil:
		d.Reason = fmt.Sprintf("%s; asking failed: %v", ReasonUnlisted, err)
	case ans.NoOne:
		d.Allowed, d.Reason = false, ReasonNoOne
	case !ans.Allowed:
		d.Reason = ReasonDeclined
	}
}

// ask answers from what this command or the session holds, or asks once
// for all the connections that wait on the same host for the same command.
func (p *Proxy) ask(cmd *command, q Question) (Answer, error) {
	hp := q.HostPort()
	key := cmd.id + "\x00" + hp
	p.mu.Lock()
	if a, ok := cmd.once[hp]; ok {
		p.mu.Unlock()
		return a, nil
	}
	if a, ok := p.session[hp]; ok {
		p.mu.Unlock()
		return a, nil
	}
	if w, ok := p.asking[key]; ok {
		p.mu.Unlock()
		<-w.done
		return w.ans, w.err
	}
	if cmd.asked >= MaxQuestions {
		p.mu.Unlock()
		return Answer{}, errTooMany
	}
	cmd.asked++
	w := &asked{done: make(chan struct{})}
	p.asking[key] = w
	p.mu.Unlock()

	w.ans, w.err = p.opts.Ask.AskHost(cmd.ctx, q)
	p.mu.Lock()
	delete(p.asking, key)
	if w.err == nil {
		p.remember(cmd, hp, w.ans)
	}
	p.mu.Unlock()
	close(w.done)
	return w.ans, w.err
}

// remember keeps an answer: for this command (once, and every refusal, so
// that a command retrying in a loop is not asked about again), or for the
// session (session, project, always: the asker keeps the last two on disk).
func (p *Proxy) remember(cmd *command, hp string, a Answer) {
	if a.Allowed && !a.NoOne && a.Scope != "" && a.Scope != "once" {
		p.session[hp] = a
		return
	}
	cmd.once[hp] = a
}

func (p *Proxy) record(cmd *command, d Decision) {
	if !d.Allowed {
		p.mu.Lock()
		if !hasRefusal(cmd.refused, d.Host, d.Port) {
			cmd.refused = append(cmd.refused, Refusal{Host: d.Host, Port: d.Port, Reason: d.Reason})
		}
		p.mu.Unlock()
	}
	if p.opts.OnDecision != nil {
		p.opts.OnDecision(d)
	}
}

func hasRefusal(list []Refusal, host string, port int) bool {
	for _, r := range list {
		if r.Host == host && r.Port == port {
			return true
		}
	}
	return false
}

// RefusedLine is the one sandbox line the model reads for a command whose
// connections were refused: the first host, and how many others.
func RefusedLine(refused []Refusal) string {
	if len(refused) == 0 {
		return ""
	}
	r := refused[0]
	line := fmt.Sprintf("sandbox: network to %s was refused (%s)", net.JoinHostPort(r.Host, strconv.Itoa(r.Port)), r.Reason)
	if n := len(refused) - 1; n > 0 {
		line += fmt.Sprintf("; and %d other host(s)", n)
	}
	return line
}

// RefusedBody is the 403's one-line body.
func RefusedBody(host string, port int, reason string) string {
	return fmt.Sprintf("wisp: network to %s refused: %s\n", net.JoinHostPort(host, strconv.Itoa(port)), reason)
}
