// Package tui is `wisp tui`, the full-screen face (docs/decisions.md, D28): a
// transcript that scrolls, an input box with three modes (normal, command
// `!`, outside `!!`), a status line, the approval dialog as a modal, and
// the list of requests waiting in the pending channel.
//
// It is a face over the agent's loop, never a second path for a
// command: messages go to agent.Agent.Send, typed lines to
// agent.Agent.RunTyped, and every command of the model through the
// runner's gate, whose approvers include this face's dialog (Approver).
// What the loop does arrives as agent.Events (Face).
//
// Everything someone else wrote (the model's words, commands and their
// output, tool results, request files) goes through internal/render
// before it is laid out: it can draw only itself.
//
// It imports agent, approval, pending, bar (the menu's content for the
// list) and the charm libraries, never chat (the line face); nothing
// imports it but cmd/wisp.
package tui
