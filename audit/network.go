package audit

// EventNetworkDecision is a decision of wisp's network proxy about one
// host for a confined command (commandPolicy.sandbox.allowedDomains).
const EventNetworkDecision = "network.decision"

// NetworkDecision is the proxy's verdict on one host and port: by the
// lists (allowedDomains, deniedDomains), by askForHosts being off, or by
// the face that asked a person (terminal, wisp-bar, approvals.json, …),
// with the scope of the answer.
type NetworkDecision struct {
	Host      string `json:"host"`
	Port      int    `json:"port"`
	Allowed   bool   `json:"allowed"`
	By        string `json:"by,omitempty"`
	Scope     string `json:"scope,omitempty"`
	Reason    string `json:"reason,omitempty"`
	CommandID string `json:"commandId,omitempty"`
	Command   string `json:"command,omitempty"`
}

func (NetworkDecision) EventName() string { return EventNetworkDecision }

var networkSummaryKeys = []string{"host", "port", "allowed", "by", "scope", "reason", "commandId"}
