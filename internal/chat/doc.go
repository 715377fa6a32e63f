// Package chat is the line-based face of wisp's agent (package agent): the
// terminal of `wisp chat` (line editing, history, colours, Ctrl-C, the
// spinner and a running command's live rows, the model's Markdown
// rendered, the / commands, the list of threads) and --json (one JSON
// object a line each way), which `wisp respond` uses too. It draws the
// agent's Events and hands the agent what a person types and answers; the
// loop, the threads, the prompt and the context are the agent's.
//
// It is a face: it imports agent, model, runner, approval, pending and
// config, never tui, and nothing imports it but cmd/wisp.
package chat
