package audit

// EventCheckpointRestored is an undo or a redo of a turn's changes.
const EventCheckpointRestored = "checkpoint.restored"

// CheckpointRestored is an undo or a redo: the folders brought back to a
// checkpoint, what that changed, and what was kept as the person had it.
type CheckpointRestored struct {
	Checkpoint int      `json:"checkpoint"`      // the checkpoint restored to
	Label      string   `json:"label,omitempty"` // "before fix the tests"
	Redo       bool     `json:"redo,omitempty"`  // a redo: the undo taken back
	RedoID     int      `json:"redoCheckpoint,omitempty"`
	Roots      []string `json:"roots"`
	Added      int      `json:"added"`    // files the turn made, removed
	Removed    int      `json:"removed"`  // files the turn deleted, put back
	Modified   int      `json:"modified"` // files the turn changed, put back
	Kept       []string `json:"kept,omitempty"`
	Overwrote  bool     `json:"overwrote,omitempty"` // files changed by hand were put back too, as asked
	Face       string   `json:"face"`                // chat, tui, cli
}

func (CheckpointRestored) EventName() string { return EventCheckpointRestored }
