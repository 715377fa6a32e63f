package audit

import "time"

// Event is one thing the audit log records. Its fields are written after
// the line's time, event, session and pid, under their JSON names.
type Event interface {
	EventName() string
}

// The event names, as written in the event field.
const (
	EventPolicyDecision    = "policy.decision"
	EventApprovalRequested = "approval.requested"
	EventApprovalPending   = "approval.pending"
	EventApprovalDecided   = "approval.decided"
	EventAnswerRefused     = "approval.answerRefused"
	EventCommandTyped      = "command.typed"
	EventCommandOutcome    = "command.outcome"
	EventToolCallFromText  = "toolCall.fromText"
)

// EventNames lists every event wisp writes, in the order a command meets them.
var EventNames = []string{
	EventPolicyDecision, EventApprovalRequested, EventApprovalPending,
	EventApprovalDecided, EventAnswerRefused, EventCommandTyped, EventCommandOutcome,
	EventNetworkDecision, EventToolCallFromText, EventCheckpointRestored,
}

// Values of the fields that take one of a few words.
const (
	OriginModel  = "model"
	OriginPerson = "person"

	IgnoredSandboxOff = "sandbox-off" // outsideSandboxIgnored: the sandbox is off here
	IgnoredNested     = "nested"      // outsideSandboxIgnored: wisp runs inside another sandbox

	DecisionApprove   = "approve"
	DecisionDeny      = "deny"
	DecisionExpired   = "expired"
	DecisionWithdrawn = "withdrawn"
	DecisionRefused   = "refused"

	SandboxLandlock = "landlock"
	SandboxSeatbelt = "seatbelt"
	SandboxNone     = "none"
	SandboxNested   = "nested"

	RefusalRefused       = "refused"
	RefusalNotTheSandbox = "not-the-sandbox"
	RefusalGuess         = "guess"
)

// PolicyDecision is the operator's lists' verdict on a line (docs/decisions.md, D4), and
// what an outsideSandbox request came to (docs/decisions.md, D22).
type PolicyDecision struct {
	Origin  string   `json:"origin"` // "model" or "person"
	Command string   `json:"command"`
	Allowed bool     `json:"allowed"`
	Segment string   `json:"segment,omitempty"` // the simple command a rule matched
	Rule    string   `json:"rule,omitempty"`
	Reason  string   `json:"reason,omitempty"`
	Level   string   `json:"level,omitempty"`
	Reasons []string `json:"reasons,omitempty"`
	// OutsideSandbox is written only when the request applied.
	OutsideSandbox bool `json:"outsideSandbox,omitempty"`
	// OutsideSandboxIgnored says why a request changed nothing:
	// "sandbox-off" or "nested".
	OutsideSandboxIgnored string `json:"outsideSandboxIgnored,omitempty"`
	// Sandbox is false when a line is allowed to run outside the sandbox.
	Sandbox *bool `json:"sandbox,omitempty"`
}

func (PolicyDecision) EventName() string { return EventPolicyDecision }

// ApprovalRequested is a line put to the faces that can ask a person.
type ApprovalRequested struct {
	ID             string   `json:"id"`
	Command        string   `json:"command"`
	Cwd            string   `json:"cwd"`
	Level          string   `json:"level"`
	Reasons        []string `json:"reasons,omitempty"`
	OutsideSandbox bool     `json:"outsideSandbox,omitempty"`
	Faces          []string `json:"faces,omitempty"`
}

func (ApprovalRequested) EventName() string { return EventApprovalRequested }

// ApprovalPending is a request filed out of band in pending/. ID is the
// request's id as `wisp approvals pending` shows it (the gate's id, shared
// by its approval.requested and approval.decided events); Digest is the
// short form of its binding that the banner and the listing show, so an
// answer by either can tell a request that was filed from one never seen.
type ApprovalPending struct {
	ID             string    `json:"id"`
	Digest         string    `json:"digest,omitempty"`
	Command        string    `json:"command"`
	File           string    `json:"file"`
	OutsideSandbox bool      `json:"outsideSandbox,omitempty"`
	ExpiresAt      time.Time `json:"expiresAt"`
}

func (ApprovalPending) EventName() string { return EventApprovalPending }

// ApprovalDecided is how a request ended: approve, deny, expired, withdrawn
// or refused. DowngradedFrom keeps the scope a face asked for when the gate
// took it as once (docs/decisions.md, D17).
type ApprovalDecided struct {
	ID             string `json:"id"`
	Command        string `json:"command"`
	Decision       string `json:"decision"`
	By             string `json:"by,omitempty"`
	Scope          string `json:"scope,omitempty"`
	DowngradedFrom string `json:"downgradedFrom,omitempty"`
	Reason         string `json:"reason,omitempty"`
	OutsideSandbox bool   `json:"outsideSandbox,omitempty"`
	// Prefixes are the held prefixes the answer kept in place of the line.
	Prefixes []string `json:"prefixes,omitempty"`
}

func (ApprovalDecided) EventName() string { return EventApprovalDecided }

// AnswerRefused is a bad answer file in the pending channel, which the gate
// removed while the request kept waiting.
type AnswerRefused struct {
	ID     string `json:"id"`
	File   string `json:"file"`
	By     string `json:"by,omitempty"`
	Reason string `json:"reason"`
}

func (AnswerRefused) EventName() string { return EventAnswerRefused }

// CommandTyped is a command the person typed after ! or !! in chat.
// SandboxRefused is true for the refusal verdicts refused and guess (docs/decisions.md, D11).
type CommandTyped struct {
	Command        string   `json:"command"`
	OutsideSandbox bool     `json:"outsideSandbox,omitempty"`
	ExitCode       int      `json:"exitCode"`
	SandboxRefused bool     `json:"sandboxRefused,omitempty"`
	SandboxRefusal string   `json:"sandboxRefusal,omitempty"`
	SandboxPaths   []string `json:"sandboxPaths,omitempty"`
}

func (CommandTyped) EventName() string { return EventCommandTyped }

// CommandOutcome is how a command that ran ended.
type CommandOutcome struct {
	Command  string `json:"command"`
	Origin   string `json:"origin"`
	ExitCode int    `json:"exitCode"`
	TimedOut bool   `json:"timedOut,omitempty"`
	Canceled bool   `json:"canceled,omitempty"`
	// Sandbox is what confined it: "landlock", "seatbelt", "none" or "nested".
	Sandbox        string   `json:"sandbox"`
	OutsideSandbox bool     `json:"outsideSandbox,omitempty"`
	SandboxRefusal string   `json:"sandboxRefusal,omitempty"` // refused, not-the-sandbox or guess
	SandboxPaths   []string `json:"sandboxPaths,omitempty"`   // the real paths checked
	Unprotected    []string `json:"unprotected,omitempty"`    // protected paths the sandbox could not cover
	PutBack        []string `json:"putBack,omitempty"`        // git files the command wrote, put back after it
	OutputID       string   `json:"outputId,omitempty"`
	OutputBytes    int64    `json:"outputBytes"`
	DurationMS     int64    `json:"durationMs"`
}

func (CommandOutcome) EventName() string { return EventCommandOutcome }

// ToolCallFromText is a tool call the model wrote as text in its answer
// (a JSON object, a <tool_call> block) and wisp read as a call, written
// before it runs. It then goes through the lists, the gate and the
// sandbox as any call: its policy.decision and command.outcome follow.
type ToolCallFromText struct {
	Tool      string `json:"tool"`
	Command   string `json:"command,omitempty"` // run_command's line
	Arguments string `json:"arguments"`
	CallID    string `json:"callId"`
}

func (ToolCallFromText) EventName() string { return EventToolCallFromText }
