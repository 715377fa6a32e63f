// Package policy owns the operator's command lists and the risk levels of a
// command line.
//
// A line is split with a real shell parser (mvdan.cc/sh) into its simple
// commands, wherever they sit: pipelines, && and ||, subshells, $( ),
// backticks, process substitutions, if/while/for/case and function bodies,
// and the command strings of sh -c, eval and alias. Each simple command is
// normalised (quotes and escapes resolved, wrappers such as env, nohup and
// exec seen through, the program taken by its base name) so that spelling a
// command differently does not get it past a rule. The deny patterns, the
// defaults and the configured ones, are matched against every simple command
// and against the whole line; deny wins; a non-empty allow list must match
// every simple command.
//
// The lists are illustrative, not a barrier: a script, or a command string
// built at run time, is not read. The kernel sandbox is the barrier.
//
// Risk levels (low < moderate < high) come from tables that are data
// (risk.txt) and from rules about the whole line (redirections that write,
// pipes into interpreters, command substitution).
//
// policy imports only the shell parser; it knows nothing of config files,
// faces or the runner.
package policy
