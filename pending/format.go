package pending

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"time"
)

// Version is the only version of the request and answer files this package
// writes and reads. A file of any other version is refused.
const Version = 1

// The words every face says of a run OUTSIDE the sandbox, declared once
// here, the lowest package that carries them, and shown by the terminal,
// wisp tui, wisp-bar and the MCP form alike (docs/decisions.md, D19).
const (
	// OutsideAsk is the question's title, after the face's own mark:
	// "⚠ approve OUTSIDE the sandbox" in a terminal, "wisp: approve
	// OUTSIDE the sandbox" on a banner.
	OutsideAsk = "approve OUTSIDE the sandbox"
	// OutsideMark prefixes such a request's command in a list of
	// requests (wisp-bar's menu, `wisp approvals pending`, /approvals).
	OutsideMark = "OUTSIDE THE SANDBOX: "
	// OutsideAsks marks a model's call that asks to run outside.
	OutsideAsks = "asks to run OUTSIDE the sandbox"
	// OutsideRuns says what such a run may do.
	OutsideRuns = "runs OUTSIDE the sandbox: it may write anywhere you can"
	// OutsideReason is the first reason of every outside-sandbox request:
	// the person reads it before answering.
	OutsideReason = OutsideRuns + ", ~/.wisp included; this one run only"
)

// Kinds of request.
const (
	KindCommand        = "command"
	KindOutsideSandbox = "outsideSandbox"
	// KindAddDirectory asks to let every command of the session write in
	// one more folder: its command is AddDirectoryCommand and the folder.
	KindAddDirectory = "addDirectory"
)

// AddDirectoryCommand begins an addDirectory request's command, before
// the folder it would open for writing.
const AddDirectoryCommand = "add_directory "

// AddDirectoryFolder is the folder an addDirectory request asks to open.
func AddDirectoryFolder(r Request) string {
	return strings.TrimPrefix(r.Command, AddDirectoryCommand)
}

// Risk levels, lowest first.
const (
	LevelLow      = "low"
	LevelModerate = "moderate"
	LevelHigh     = "high"
)

// Scopes an answer may carry.
const (
	ScopeOnce    = "once"
	ScopeSession = "session"
	ScopeProject = "project"
	ScopeAlways  = "always"
)

// Decisions an answer may carry.
const (
	DecisionApprove = "approve"
	DecisionDeny    = "deny"
)

// Faces a request may come from.
const (
	FaceChat    = "chat"
	FaceRespond = "respond"
	FaceMCP     = "mcp"
	FaceRun     = "run"
	FaceTUI     = "tui"
)

// AllScopes is what a command request offers when its filer names none.
var AllScopes = []string{ScopeOnce, ScopeSession, ScopeProject, ScopeAlways}

// Prefix scopes hold the command's prefix ("go test …") in place of its
// exact line; a command request offers them beside session, project and
// always when the gate can hold a prefix for it, and names the prefix in
// a reason that begins with PrefixReason.
const (
	ScopeSessionPrefix = "session-prefix"
	ScopeProjectPrefix = "project-prefix"
	ScopeAlwaysPrefix  = "always-prefix"
	PrefixSuffix       = "-prefix"
	PrefixReason       = "its prefix may be held in place of the line: "
)

// PrefixScopes are the scopes that hold a prefix, narrowest first.
var PrefixScopes = []string{ScopeSessionPrefix, ScopeProjectPrefix, ScopeAlwaysPrefix}

// knownScope reports whether s is a scope of this version.
func knownScope(s string) bool {
	return slices.Contains(AllScopes, s) || slices.Contains(PrefixScopes, s)
}

// HeldPrefix is the prefix a request offers to hold, as its reason names
// it ("go test …"), or "".
func HeldPrefix(r Request) string {
	for _, reason := range r.Reasons {
		if p, ok := strings.CutPrefix(reason, PrefixReason); ok {
			return p
		}
	}
	return ""
}

// Request is one pending/<id>.request.json. The JSON field order here is
// the order written.
type Request struct {
	Version        int       `json:"version"`
	ID             string    `json:"id"`
	Kind           string    `json:"kind"`
	Command        string    `json:"command"`
	Cwd            string    `json:"cwd"`
	OutsideSandbox bool      `json:"outsideSandbox"`
	Level          string    `json:"level"`
	Reasons        []string  `json:"reasons"`
	Scopes         []string  `json:"scopes"`
	Face           string    `json:"face"`
	Requester      Requester `json:"requester"`
	RequestedAt    time.Time `json:"requestedAt"`
	ExpiresAt      time.Time `json:"expiresAt"`
}

// Requester says which process waits for the answer. StartTime tells a
// reused pid apart: it is opaque text, compared for equality on the same
// system (Linux: field 22 of /proc/<pid>/stat, in clock ticks since boot;
// macOS: the kinfo_proc start time as "seconds.microseconds").
type Requester struct {
	PID       int    `json:"pid"`
	StartTime string `json:"startTime"`
}

// Answer is one pending/<id>.answer.json.
type Answer struct {
	Version    int       `json:"version"`
	ID         string    `json:"id"`
	Binding    string    `json:"binding"`
	Decision   string    `json:"decision"`
	Scope      string    `json:"scope"`
	By         string    `json:"by"`
	AnsweredAt time.Time `json:"answeredAt"`
}

// Binding is the lowercase hex SHA-256 of a request file's bytes, exactly
// as written (by the requester) or as read (by a face).
func Binding(requestBytes []byte) string {
	sum := sha256.Sum256(requestBytes)
	return hex.EncodeToString(sum[:])
}

// Digest is the short form of a binding that faces show, so that a person
// can match a banner with a line of `wisp approvals pending`.
func Digest(binding string) string {
	const n = 8
	if len(binding) < n {
		return binding
	}
	return binding[:n]
}
