package main

import (
	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/tools"
)

// toolbox gives the model's tools over this session's runner, for every
// face that hands them to a model or an agent (chat, respond, mcp). ask is
// how add_directory reaches a person; nil leaves add_directory out.
func (s *session) toolbox(app *App, ask tools.AskPerson) *tools.Toolbox {
	userHome, _ := app.UserHome()
	tb := &tools.Toolbox{
		Runner:  s.runner,
		Folders: tools.Folders{Project: s.runner.Dir, UserHome: userHome, WispHome: s.home.Dir},
		Ask:     ask,
	}
	if s.cfg.CommandPolicy.Sandbox.Enabled && !s.runner.Unsafe {
		tb.Spec = s.grantedSpec(app, userHome)
	}
	return tb
}

// grantedSpec rebuilds the sandbox's spec with the granted folders, as
// wireSandbox builds the first one, checked by the backend the same way.
func (s *session) grantedSpec(app *App, userHome string) func([]string) (sandbox.Spec, error) {
	return func(granted []string) (sandbox.Spec, error) {
		spec, err := sandbox.NewSpec(sandbox.SpecOptions{
			LaunchDir: s.runner.Dir, WispHome: s.home.Dir, UserHome: userHome,
			WritablePaths: s.cfg.CommandPolicy.Sandbox.WritablePaths, Granted: granted,
			AllowNetwork: s.cfg.CommandPolicy.Sandbox.AllowNetwork, Getenv: app.Getenv,
		})
		if err != nil || s.runner.Backend == nil {
			return spec, err
		}
		return s.runner.Backend.Check(spec)
	}
}
