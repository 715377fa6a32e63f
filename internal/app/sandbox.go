package app

import (
	"fmt"
	"os"

	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/sandbox"
)

// SandboxSpec builds the spec a command launched here would run under.
func SandboxSpec(f *Factory) (sandbox.Spec, config.Config, error) {
	home, cfg, err := f.Config()
	if err != nil {
		return sandbox.Spec{}, cfg, err
	}
	launch, err := os.Getwd()
	if err != nil {
		return sandbox.Spec{}, cfg, fmt.Errorf("find the launch directory: %w", err)
	}
	userHome, err := f.UserHome()
	if err != nil {
		return sandbox.Spec{}, cfg, fmt.Errorf("find your home directory: %w", err)
	}
	spec, err := sandbox.NewSpec(SpecOptions(f, cfg, home, launch, userHome))
	spec = runner.PlannedNetwork(cfg, spec) // allowedDomains: the proxy's mode and lists
	return spec, cfg, err
}

// SandboxStatus is what the sandbox would enforce for a command launched
// here, for `wisp sandbox report` and doctor.
func SandboxStatus(f *Factory) (sandbox.Status, error) {
	spec, _, err := SandboxSpec(f)
	if err != nil {
		return sandbox.Status{}, err
	}
	exe, err := f.Executable()
	if err != nil {
		return sandbox.Status{}, fmt.Errorf("find wisp's own binary for the sandbox helper: %w", err)
	}
	return sandbox.Report(exe, spec), nil
}
