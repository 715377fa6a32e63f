package sandbox

import (
	"slices"
	"strings"
	"testing"
)

func TestNetworkMode(t *testing.T) {
	on := Spec{Network: true}
	proxied := on.ThroughProxy(NetworkProxy{Port: 3128, Allowed: []string{"github.com"}, Ask: true})
	if on.NetworkMode() != "on" || (Spec{}).NetworkMode() != "off" || proxied.NetworkMode() != "proxy" || proxied.Network {
		t.Fatalf("modes: %s %s %s", on.NetworkMode(), Spec{}.NetworkMode(), proxied.NetworkMode())
	}
	st := Status{Spec: proxied, Landlock: &LandlockFeatures{ABI: 7, TCP: true}}
	lines := st.Lines()
	if !slices.Contains(lines, "network: only through wisp's proxy on 127.0.0.1:3128 (allowedDomains github.com; other hosts are asked of a person)") {
		t.Errorf("report lines miss the network mode: %q", lines)
	}
	if !strings.Contains(strings.Join(lines, "\n"), "not covered: a host elsewhere listening on port 3128") {
		t.Errorf("report lines miss the proxy's gap: %q", lines)
	}
}

func TestNetworkNamespaceClosesTheGap(t *testing.T) {
	spec := Spec{}.ThroughProxy(NetworkProxy{Port: 3128, Allowed: []string{"github.com"}})
	for _, c := range []struct {
		ns         Namespace
		background bool
		gap        bool
	}{{NamespaceMount, false, false}, {NamespaceUser, false, false}, {NamespaceNone, false, true}, {NamespaceUser, true, true}} {
		spec.Background = c.background
		st := Status{Spec: spec, Landlock: &LandlockFeatures{ABI: 7, TCP: true}, Namespace: c.ns}
		lines := strings.Join(st.Lines(), "\n")
		if got := strings.Contains(lines, "not covered: a host elsewhere listening on port 3128"); got != c.gap {
			t.Errorf("namespace %s, background %v: gap reported %v, want %v:\n%s", c.ns, c.background, got, c.gap, lines)
		}
		if got := strings.Contains(lines, "a network namespace of its own"); got == c.gap {
			t.Errorf("namespace %s, background %v: own network namespace reported %v:\n%s", c.ns, c.background, got, lines)
		}
	}
}
