// Package agent is wisp's agent, apart from any face: the loop that sends
// a person's message to the model, streams its words and runs its tool
// calls (the model's tools are package tools) until it answers; the lines
// a person types after ! and !! (docs/decisions.md, D25), parsed and run;
// the thread records under wisp's home, written, listed, read and resumed;
// the system prompt with the project's AGENTS.md; and the bounded context
// (old outputs shortened, old turns summarised).
//
// It tells a Face what happens as Events and draws nothing, reads no keys:
// the faces import it, chat (the line-based terminal and --json of wisp
// chat and wisp respond) and tui (wisp tui), and it imports neither.
//
// Every command goes through runner.Run: the model's through the tools
// package's run_command, the person's typed ones directly with origin
// person. Nothing here runs a command another way.
package agent
