package main

import (
	"fmt"
	"strings"
	"time"
)

// limitRule gives the packages a pattern names a time limit of their own;
// an empty pattern is every package no other rule names.
type limitRule struct {
	pattern string
	limit   time.Duration
}

type limitRules []limitRule

// add parses one -limit value: DURATION, or PATTERN=DURATION.
func (rules limitRules) add(value string) (limitRules, error) {
	pattern, text, found := strings.Cut(value, "=")
	if !found {
		pattern, text = "", value
	}
	d, err := time.ParseDuration(text)
	if err != nil || d <= 0 {
		return nil, fmt.Errorf("-limit takes DURATION or PATTERN=DURATION (such as 5m, or example.com/m/slow/...=10m), not %q", value)
	}
	return append(rules, limitRule{pattern, d}), nil
}

// fit checks that go test's own -timeout, which ends a package outright,
// is no shorter than any limit: a longer limit would never be reached.
func (rules limitRules) fit(timeout time.Duration) error {
	for _, r := range rules {
		if r.limit > timeout {
			return fmt.Errorf("-limit %s is longer than go test's -timeout %s, which would end the package first: give go test the longest limit", r.limit, timeout)
		}
	}
	return nil
}

// of is pkg's limit: the first rule whose pattern names it, else the rule
// without a pattern, else fallback (go test's -timeout).
func (rules limitRules) of(pkg string, fallback time.Duration) time.Duration {
	limit := fallback
	for _, r := range rules {
		switch {
		case r.pattern != "" && matches(r.pattern, pkg):
			return r.limit
		case r.pattern == "":
			limit = r.limit
		}
	}
	return limit
}

// matches reports whether pattern, an import path or a tree ending in
// /..., names pkg.
func matches(pattern, pkg string) bool {
	if tree, ok := strings.CutSuffix(pattern, "/..."); ok {
		return pkg == tree || strings.HasPrefix(pkg, tree+"/")
	}
	return pkg == pattern
}
