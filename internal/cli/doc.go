// Package cli is wisp's command line: the root command, the one place
// where errors become exit codes and `wisp: error:` lines with their hints
// (one Hint method, read by one hintsFor), and the lean commands, which
// talk to no model: run, version, config, approvals, policy, logs and
// sandbox. Each command is flags, one call into internal/app, and output.
//
// The lean wisp (cmd/wisp) links this package alone and hands every other
// command to wisp-agent (HandOff); wisp-agent (cmd/wisp-agent) adds the
// agent's commands from internal/cli/agentcli (Run's AddCommands). So
// nothing here may link a face, the model client or net/http:
// TestLeanBuildLinksNoFace holds it (docs/architecture.md, layer 6).
package cli
