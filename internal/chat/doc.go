// Package chat owns the conversation: the agent loop that streams the
// model's words and runs its tool calls, the lines a person types after !
// and !! (record 0064's amendment), the thread records under wisp's home,
// the system prompt with the project's AGENTS.md, the bounded context
// (old outputs shortened, old turns summarised), and the two faces of
// `wisp chat`: the terminal (line editing, history, colours, Ctrl-C, the
// spinner and a running command's live rows, the model's Markdown
// rendered, the / commands) and --json (one JSON object a line each way).
// `wisp respond` drives the same agent for one prompt.
//
// Every command goes through runner.Run: the model's through the tools
// package's run_command, the person's typed ones directly with origin
// person. Nothing here runs a command another way.
//
// It is a face: it imports model, tools, runner, approval, pending, policy,
// sandbox and config, and nothing imports it but cmd/wisp.
package chat
