// Package mcp owns `wisp mcp`, the face another agent talks to: wisp's
// tools (run_command, add_directory, inspect, the same as the chat's, from
// package tools) served over the Model Context Protocol on stdio, and the
// approver that asks the person through that agent's client (MCP
// elicitation).
//
// Nothing here approves a command by itself. A tool call carries no answer
// (the tools' arguments are checked strictly), a question goes to the
// client's person through elicitation or to the pending channel, and an
// outside-sandbox request is answered only by a person (docs/decisions.md, D16 to
// D19). A client that cannot ask a person is told so.
//
// It imports tools, approval, runner and the MCP Go SDK; only cmd/wisp
// imports it.
package mcp
