package netproxy

import (
	"strings"
	"testing"
)

func TestPatternMatches(t *testing.T) {
	for _, c := range []struct {
		pattern, host string
		port          int
		want          bool
	}{
		{"github.com", "github.com", 443, true},
		{"github.com", "GitHub.COM.", 443, true},
		{"github.com", "api.github.com", 443, false},
		{"github.com", "evilgithub.com", 443, false},
		{"*.npmjs.org", "registry.npmjs.org", 443, true},
		{"*.npmjs.org", "a.b.npmjs.org", 80, true},
		{"*.npmjs.org", "npmjs.org", 443, false},
		{"*.npmjs.org", "evilnpmjs.org", 443, false},
		{"proxy.golang.org:443", "proxy.golang.org", 443, true},
		{"proxy.golang.org:443", "proxy.golang.org", 80, false},
		{"*.crates.io:443", "static.crates.io", 443, true},
		{"*.crates.io:443", "static.crates.io", 22, false},
		{"10.0.0.1", "10.0.0.1", 80, true},
		{"[::1]:8080", "::1", 8080, true},
		{"[::1]:8080", "0:0::1", 8080, true},
	} {
		p, err := ParsePattern(c.pattern)
		if err != nil {
			t.Fatalf("ParsePattern(%q): %v", c.pattern, err)
		}
		h, err := NormalizeHost(c.host)
		if err != nil {
			t.Fatalf("NormalizeHost(%q): %v", c.host, err)
		}
		if got := p.Matches(h, c.port); got != c.want {
			t.Errorf("%q matches %s:%d = %v, want %v", c.pattern, c.host, c.port, got, c.want)
		}
	}
}

func TestParsePatternRefusesWhatIsNoHost(t *testing.T) {
	for _, s := range []string{"", "https://github.com", "github.com/x", "*", "*.org", "git*.com", "a..b", "host:0", "host:99999", "*.10.0.0.1", "user@host"} {
		if p, err := ParsePattern(s); err == nil {
			t.Errorf("ParsePattern(%q) = %v, want an error", s, p)
		}
	}
}

func TestDeniedWins(t *testing.T) {
	r, err := ParseRules([]string{"*.example.org", "example.net"}, []string{"evil.example.org", "example.net:22"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		host string
		port int
		want Verdict
	}{
		{"good.example.org", 443, Allowed},
		{"evil.example.org", 443, Denied},
		{"x.evil.example.org", 443, Allowed}, // a denied exact host does not take its subdomains
		{"example.net", 443, Allowed},
		{"example.net", 22, Denied},
		{"example.com", 443, Unlisted},
		{"bad host", 443, Denied},
	} {
		if got := r.Match(c.host, c.port); got != c.want {
			t.Errorf("Match(%s:%d) = %v, want %v", c.host, c.port, got, c.want)
		}
	}
}

func TestParseRulesNamesTheList(t *testing.T) {
	_, err := ParseRules(nil, []string{"https://x.org"})
	if err == nil || !strings.Contains(err.Error(), "commandPolicy.sandbox.deniedDomains") {
		t.Fatalf("error = %v, want one naming deniedDomains", err)
	}
}
