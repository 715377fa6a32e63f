package modeltest

import (
	"net/http"
	"strings"
)

// The non-streamed answer (stream false): one chat.completion object.

type completion struct {
	ID                string             `json:"id"`
	Object            string             `json:"object"`
	Created           int64              `json:"created"`
	Model             string             `json:"model"`
	SystemFingerprint string             `json:"system_fingerprint"`
	Choices           []completionChoice `json:"choices"`
	Usage             usage              `json:"usage"`
}

type completionChoice struct {
	Index        int               `json:"index"`
	Message      completionMessage `json:"message"`
	FinishReason string            `json:"finish_reason"`
}

type completionMessage struct {
	Role      string         `json:"role"`
	Content   string         `json:"content"`
	ToolCalls []wireToolCall `json:"tool_calls,omitempty"`
}

func (h *handler) complete(w http.ResponseWriter, r *http.Request, turn Turn, req Request) {
	switch {
	case turn.CutOff:
		panic(http.ErrAbortHandler)
	case turn.Hang:
		h.hang(r)
	case turn.StreamError != "":
		writeError(w, http.StatusInternalServerError, openAIError(turn.StreamError))
		return
	}
	msg := completionMessage{Role: "assistant", Content: strings.Join(turn.Text, "")}
	for _, call := range turn.ToolCalls {
		var tc wireToolCall
		tc.ID, tc.Type = call.ID, "function"
		tc.Function.Name, tc.Function.Arguments = call.Name, strings.Join(call.Arguments, "")
		msg.ToolCalls = append(msg.ToolCalls, tc)
	}
	writeJSON(w, http.StatusOK, completion{ID: h.completionID(), Object: "chat.completion", Created: created,
		Model: req.Model, SystemFingerprint: "fp_modeltest",
		Choices: []completionChoice{{Message: msg, FinishReason: finishReason(turn)}},
		Usage:   *usageOf(req, len(turn.Text)+len(turn.ToolCalls))})
}
