package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/wisp-sh/wisp/config"
)

// doctorCheck is one line of `wisp doctor`: a name and a function that
// returns what it found, or an error that says what to do.
type doctorCheck struct {
	name string
	run  func() (string, error)
}

func newDoctorCmd(app *App) *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Check wisp's home, configuration and sandbox, one line each",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runDoctor(app)
		},
	}
}

func runDoctor(app *App) error {
	home, err := app.Home()
	if err != nil {
		return err
	}
	failed := 0
	for _, c := range doctorChecks(app, home) {
		detail, err := c.run()
		if err != nil {
			failed++
			fmt.Fprintf(app.Stdout, "FAIL %-8s %v\n", c.name, err)
			continue
		}
		fmt.Fprintf(app.Stdout, "ok   %-8s %s\n", c.name, detail)
	}
	if failed > 0 {
		return &exitError{code: exitFailure, quiet: true}
	}
	return nil
}

// doctorChecks lists the checks in the order they print. Later features
// append theirs.
func doctorChecks(app *App, home config.Home) []doctorCheck {
	return []doctorCheck{
		{"home", func() (string, error) {
			if err := home.Check(os.Getuid()); err != nil {
				return "", err
			}
			return home.Dir + " (0700, yours)", nil
		}},
		{"config", func() (string, error) {
			if _, err := config.Load(home); err != nil {
				return "", err
			}
			return home.ConfigFile() + " is valid", nil
		}},
		{"sandbox", func() (string, error) { return doctorSandbox(app, home) }},
	}
}
