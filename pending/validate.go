package pending

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// ParseRequest reads a request file's bytes, refusing anything that is not
// exactly a version 1 request that obeys the rules of its kind.
func ParseRequest(data []byte) (Request, error) {
	var r Request
	if err := decodeStrict(data, requestShape, &r); err != nil {
		return Request{}, err
	}
	if err := validateRequest(r); err != nil {
		return Request{}, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	return r, nil
}

// ParseAnswer reads an answer file's bytes, refusing anything that is not
// exactly a version 1 answer.
func ParseAnswer(data []byte) (Answer, error) {
	var a Answer
	if err := decodeStrict(data, answerShape, &a); err != nil {
		return Answer{}, err
	}
	if !knownScope(a.Scope) {
		return Answer{}, fmt.Errorf("%w: %q", ErrUnknownScope, a.Scope)
	}
	if err := validateAnswer(a); err != nil {
		return Answer{}, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	return a, nil
}

func validateRequest(r Request) error {
	checks := []func(Request) error{checkRequestIdentity, checkRequestText, checkRequestKind, checkRequestScopes, checkRequestTimes}
	for _, check := range checks {
		if err := check(r); err != nil {
			return err
		}
	}
	return nil
}

func checkRequestIdentity(r Request) error {
	if !validID(r.ID) {
		return fmt.Errorf("id %q is not 16 lowercase hex characters", r.ID)
	}
	if r.Requester.PID <= 0 || r.Requester.StartTime == "" {
		return fmt.Errorf("requester %+v names no process", r.Requester)
	}
	if !slices.Contains([]string{FaceChat, FaceRespond, FaceMCP, FaceRun, FaceTUI}, r.Face) {
		return fmt.Errorf("face %q is not chat, respond, mcp, run or tui", r.Face)
	}
	return nil
}

func checkRequestText(r Request) error {
	if r.Command == "" {
		return fmt.Errorf("the command is empty")
	}
	if !filepath.IsAbs(r.Cwd) {
		return fmt.Errorf("cwd %q is not an absolute path", r.Cwd)
	}
	if !slices.Contains([]string{LevelLow, LevelModerate, LevelHigh}, r.Level) {
		return fmt.Errorf("level %q is not low, moderate or high", r.Level)
	}
	return nil
}

// checkRequestKind holds the rules of decisions D16 and D17: an outside-sandbox request says
// so twice (kind and flag), names the danger first, and is moderate at least.
func checkRequestKind(r Request) error {
	switch {
	case r.Kind == KindAddDirectory:
		return checkAddDirectory(r)
	case r.Kind == KindNetwork:
		return checkNetwork(r)
	case r.Kind != KindCommand && r.Kind != KindOutsideSandbox:
		return fmt.Errorf("kind %q is not command, outsideSandbox, addDirectory or network", r.Kind)
	case r.OutsideSandbox != (r.Kind == KindOutsideSandbox):
		return fmt.Errorf("kind %q disagrees with outsideSandbox %v", r.Kind, r.OutsideSandbox)
	case !r.OutsideSandbox:
		return nil
	case len(r.Reasons) == 0 || r.Reasons[0] != OutsideReason:
		return fmt.Errorf("an outside-sandbox request's first reason must be %q", OutsideReason)
	case r.Level == LevelLow:
		return fmt.Errorf("an outside-sandbox request is moderate at least, not low")
	}
	return nil
}

func checkRequestScopes(r Request) error {
	if len(r.Scopes) == 0 {
		return fmt.Errorf("no scopes are offered")
	}
	for i, s := range r.Scopes {
		if !knownScope(s) || slices.Contains(r.Scopes[:i], s) {
			return fmt.Errorf("scope %q is unknown or repeated", s)
		}
		if base, ok := strings.CutSuffix(s, PrefixSuffix); ok && (r.Kind != KindCommand || !slices.Contains(r.Scopes, base) || HeldPrefix(r) == "") {
			return fmt.Errorf("scope %q is offered only by a command request that offers %q and names its prefix", s, base)
		}
	}
	if r.OutsideSandbox && !slices.Equal(r.Scopes, []string{ScopeOnce}) {
		return fmt.Errorf("an outside-sandbox request offers only [\"once\"], not %q", r.Scopes)
	}
	return nil
}

func checkRequestTimes(r Request) error {
	if r.RequestedAt.IsZero() || !r.ExpiresAt.After(r.RequestedAt) {
		return fmt.Errorf("expiresAt %s is not after requestedAt %s", r.ExpiresAt, r.RequestedAt)
	}
	return nil
}

func validateAnswer(a Answer) error {
	switch {
	case !validID(a.ID):
		return fmt.Errorf("id %q is not 16 lowercase hex characters", a.ID)
	case !isLowerHex(a.Binding, 64):
		return fmt.Errorf("binding %q is not 64 lowercase hex characters", a.Binding)
	case a.Decision != DecisionApprove && a.Decision != DecisionDeny:
		return fmt.Errorf("decision %q is not approve or deny", a.Decision)
	case a.By == "":
		return fmt.Errorf("the answer does not say which face wrote it")
	case a.AnsweredAt.IsZero():
		return fmt.Errorf("the answer has no answeredAt")
	}
	return nil
}

func validID(id string) bool { return isLowerHex(id, 16) }

func isLowerHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, c := range []byte(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func contains(list []string, s string) bool { return slices.Contains(list, s) }

// checkAddDirectory: a request to open a folder for writing names one
// absolute folder, runs nothing outside the sandbox, and lasts the
// session whatever it is answered with, so it offers once alone.
func checkAddDirectory(r Request) error {
	folder, ok := strings.CutPrefix(r.Command, AddDirectoryCommand)
	switch {
	case !ok || !filepath.IsAbs(folder):
		return fmt.Errorf("an addDirectory request's command must be %q and an absolute folder", AddDirectoryCommand)
	case r.OutsideSandbox:
		return fmt.Errorf("an addDirectory request does not run outside the sandbox")
	case len(r.Scopes) != 1 || r.Scopes[0] != ScopeOnce:
		return fmt.Errorf("an addDirectory request offers once alone")
	}
	return nil
}
