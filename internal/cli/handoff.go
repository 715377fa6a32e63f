package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/sandbox"
)

// agentExecutable runs the agent's commands for the lean wisp: the same
// root with agentcli's commands added (cmd/wisp-agent), installed beside it.
const agentExecutable = "wisp-agent"

// leanCommands are what the lean wisp runs itself: none of them talks to a
// model, an MCP client, an HTTP server or the desktop bus, so it starts
// without their packages' initialisers. Everything else (chat, respond,
// mcp, tui, undo, doctor, a bare prompt, help and completion, which list every
// command) is the agent's, and so is a run that wants wisp's network proxy
// (HandOffForProxy).
var leanCommands = map[string]bool{
	"run": true, "version": true, "--version": true, "-v": true,
	"config": true, "approvals": true, "policy": true, "logs": true, "sandbox": true,
}

// HandOff execs wisp-agent with the same arguments unless the lean wisp
// runs the command itself. It returns only then. Only cmd/wisp calls it:
// wisp-agent runs every command itself.
func HandOff(args []string) {
	if len(args) > 0 && leanCommands[args[0]] {
		return
	}
	err := execAgent(args)
	PrintError(os.Stderr, err)
	os.Exit(ExitCode(err))
}

// HandOffForProxy execs wisp-agent with the same arguments when cfg wants
// the network through wisp's proxy (allowedDomains), which this build
// leaves out with net/http (internal/netproxy/httpproxy). It is called before the session starts
// anything: nothing is logged, asked or run twice.
func HandOffForProxy(cfg config.Config) error {
	if !runner.WantsProxy(cfg) {
		return nil
	}
	return execAgent(os.Args[1:])
}

// execAgent replaces this process with wisp-agent, found beside wisp's own
// executable and verified as the sandbox helper is (sandbox.TrustedBeside).
func execAgent(args []string) error {
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		return fmt.Errorf("find wisp's own executable, beside which %s runs the agent's commands: %w", agentExecutable, err)
	}
	agent, err := sandbox.TrustedBeside(exe, agentExecutable)
	var untrusted *sandbox.UntrustedExecutableError
	switch {
	case errors.As(err, &untrusted):
		return fmt.Errorf("%w, so it is not run", err) // its Hint says how to put it right
	case err != nil:
		return err
	case agent == "":
		return WithHint(fmt.Errorf("%s, which runs chat, respond, mcp, tui and doctor, is not beside wisp in %s", agentExecutable, filepath.Dir(exe)),
			"install wisp again (make install puts both in place)")
	}
	err = syscall.Exec(agent, append([]string{agent}, args...), os.Environ())
	return fmt.Errorf("run %s: %w", agent, err)
}
