package runner

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/wisp-sh/wisp/audit"
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/netproxy"
	"github.com/wisp-sh/wisp/sandbox"
)

// network is the runner's share of the network by domain: wisp's proxy,
// started for this process when commandPolicy.sandbox.allowNetwork is
// false and allowedDomains lists a host, and whoever asks a person about
// a host in neither list.
type network struct {
	proxy *netproxy.Proxy
	spec  sandbox.NetworkProxy
}

// ProxyWanted says whether the configuration asks for the network through
// wisp's proxy: the network off, and allowedDomains listing a host.
func (r *Runner) ProxyWanted() bool { return WantsProxy(r.Config) }

// WantsProxy is ProxyWanted for a configuration no runner has yet: the
// lean wisp, which has no proxy, hands such a run to wisp-agent.
func WantsProxy(cfg config.Config) bool {
	sb := cfg.CommandPolicy.Sandbox
	return !sb.AllowNetwork && len(sb.AllowedDomains) > 0
}

// StartNetwork starts wisp's proxy for this process's confined commands
// when the configuration asks for it, and confines them to it. Hosts asks
// a person about a host in neither list; the gate's approvers set it (a
// nil Hosts, or approval.askForHosts false, refuses every such host). The
// runner's Close stops it.
func (r *Runner) StartNetwork() error { return r.startNetwork(nil) }

// startNetwork is StartNetwork with the proxy's options adjusted by edit
// (a test's resolver), when not nil.
func (r *Runner) startNetwork(edit func(*netproxy.Options)) error {
	if !r.ProxyWanted() || r.net.proxy != nil {
		return nil
	}
	sb := r.Config.CommandPolicy.Sandbox
	rules, err := netproxy.ParseRules(sb.AllowedDomains, sb.DeniedDomains)
	if err != nil {
		return err
	}
	opts := netproxy.Options{Rules: rules, OnDecision: r.auditNetwork}
	if r.Config.Approval.AskForHosts {
		opts.Ask = hostAsker{r}
	}
	if edit != nil {
		edit(&opts)
	}
	p, err := netproxy.Listen(opts)
	if err != nil {
		return fmt.Errorf("start wisp's network proxy for commandPolicy.sandbox.allowedDomains: %w", err)
	}
	r.net.proxy = p
	r.net.spec = sandbox.NetworkProxy{Port: p.Port(), Allowed: sb.AllowedDomains, Denied: sb.DeniedDomains, Ask: r.Config.Approval.AskForHosts}
	r.Spec = r.networkSpec(r.Spec)
	return nil
}

// PlannedNetwork is spec as StartNetwork would confine it, for `wisp
// doctor` and `wisp sandbox report`, which start no proxy: its port is
// left 0, chosen when a wisp process starts one.
func PlannedNetwork(cfg config.Config, spec sandbox.Spec) sandbox.Spec {
	sb := cfg.CommandPolicy.Sandbox
	if sb.AllowNetwork || len(sb.AllowedDomains) == 0 {
		return spec
	}
	return spec.ThroughProxy(sandbox.NetworkProxy{Allowed: sb.AllowedDomains, Denied: sb.DeniedDomains, Ask: cfg.Approval.AskForHosts})
}

// networkSpec is spec confined to the proxy, when there is one: a spec
// built afresh since (a folder granted with add_directory) keeps to it.
func (r *Runner) networkSpec(spec sandbox.Spec) sandbox.Spec {
	if r.net.proxy == nil {
		return spec
	}
	return spec.ThroughProxy(r.net.spec)
}

// NetworkOn says whether the commands wisp runs reach the network: the
// one answer every face shows (chat's /status, the tui's status line).
// Unconfined (--unsafe, the sandbox off, nested) they reach it whatever
// allowNetwork says; confined, as the sandbox's spec says, and not when
// only wisp's proxy is open to them.
func (r *Runner) NetworkOn() bool {
	return r.Resolve(false) != ModeConfined || r.networkSpec(r.Spec).NetworkMode() == "on"
}

// ProxyAddr is the proxy's address (127.0.0.1:PORT), or "" when there is
// none.
func (r *Runner) ProxyAddr() string {
	if r.net.proxy == nil {
		return ""
	}
	return r.net.proxy.Addr()
}

func (r *Runner) closeNetwork() {
	if r.net.proxy != nil {
		r.net.proxy.Close()
	}
}

// hostAsker asks through the runner's Hosts, which the gate's wiring sets
// after the proxy has started.
type hostAsker struct{ r *Runner }

func (a hostAsker) AskHost(ctx context.Context, q netproxy.Question) (netproxy.Answer, error) {
	if a.r.Hosts == nil {
		return netproxy.Answer{NoOne: true, By: "nobody"}, nil
	}
	return a.r.Hosts.AskHost(ctx, q)
}

func (r *Runner) auditNetwork(d netproxy.Decision) {
	r.log(audit.NetworkDecision{Host: d.Host, Port: d.Port, Allowed: d.Allowed, By: d.By, Scope: d.Scope,
		Reason: d.Reason, CommandID: d.CommandID, Command: d.Command})
}

// beginNetwork tells the proxy that command id runs now, so that its
// connections are asked about in its name; the func it returns ends that
// and returns the hosts refused to it.
func (r *Runner) beginNetwork(ctx context.Context, id, line string, mode Mode) func() []netproxy.Refusal {
	if r.net.proxy == nil || mode != ModeConfined {
		return func() []netproxy.Refusal { return nil }
	}
	return r.net.proxy.Begin(ctx, id, line)
}

// noteNetwork sets the sandbox line for the hosts the proxy refused, so
// that the model reads why and does not retry blindly. It takes the place
// of the refusal check's line: a refused host is the surer reason.
func noteNetwork(res *Result, refused []netproxy.Refusal) {
	if line := netproxy.RefusedLine(refused); line != "" {
		res.SandboxLine = line
	}
}

// proxyEnv sets the variables through which curl, git, npm, pip, go and
// cargo find the proxy, upper and lower case, in place of any the person
// had (a proxy elsewhere is out of reach anyway), with NO_PROXY naming
// only this machine, which stays out of reach too.
func (r *Runner) proxyEnv(env []string) []string {
	if r.net.proxy == nil {
		return env
	}
	url := "http://" + r.net.proxy.Addr()
	set := map[string]string{"NO_PROXY": "localhost,127.0.0.1,::1"}
	for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"} {
		set[k] = url
	}
	out := slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		_, ok := set[strings.ToUpper(k)]
		return ok
	})
	for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"} {
		out = append(out, k+"="+set[k], strings.ToLower(k)+"="+set[k])
	}
	return out
}

// NetworkLimits is the limits text's line for the network: off, or only
// through wisp's proxy to the listed hosts, and what becomes of others.
// With the network on it says nothing.
func (r *Runner) NetworkLimits() string {
	spec := r.networkSpec(r.Spec)
	switch spec.NetworkMode() {
	case "off":
		return "The network is off for commands.\n"
	case "proxy":
		p := spec.Proxy
		text := "Commands reach the network only through wisp's proxy (HTTP_PROXY, HTTPS_PROXY and ALL_PROXY are set for them), to these hosts: " +
			strings.Join(p.Allowed, ", ")
		if len(p.Denied) > 0 {
			text += "; never to " + strings.Join(p.Denied, ", ")
		}
		if p.Ask {
			return text + ". Another host is asked of the person while the connection waits; a refusal reads `wisp: network to HOST refused: …`: do not retry it.\n"
		}
		return text + ". Every other host is refused (`wisp: network to HOST refused: …`): do not retry it.\n"
	}
	return ""
}
