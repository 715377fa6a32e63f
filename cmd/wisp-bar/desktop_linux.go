package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/wisp-sh/wisp/internal/config"
)

// xdgDesktop opens what the menu asks for with the desktop's programs.
type xdgDesktop struct{ home config.Home }

// OpenAuditLog shows the audit log as a person reads it: `wisp logs
// --follow` in a terminal (Debian's x-terminal-emulator, or $TERMINAL),
// or, without one, the summary `wisp logs` prints, saved beside wisp's
// cache and opened with xdg-open. The raw JSON lines are for programs.
func (d xdgDesktop) OpenAuditLog(file string) error {
	if _, err := os.Stat(file); err != nil {
		return fmt.Errorf("open %s: %w (wisp writes it at its first command)", file, err)
	}
	wisp, err := wispProgram()
	if err != nil {
		return err
	}
	if term := terminal(); term != "" {
		return d.start(exec.Command(term, "-e", wisp, "logs", "--follow"))
	}
	summary, err := d.summary(wisp)
	if err != nil {
		return err
	}
	opener, err := exec.LookPath("xdg-open")
	if err != nil {
		return fmt.Errorf("neither a terminal (x-terminal-emulator) nor xdg-open is installed (install xdg-utils); run `wisp logs` meanwhile")
	}
	return d.start(exec.Command(opener, summary))
}

func terminal() string {
	for _, name := range []string{os.Getenv("TERMINAL"), "x-terminal-emulator"} {
		if name == "" {
			continue
		}
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	return ""
}

// summary writes what `wisp logs` prints to a text file and returns its path.
func (d xdgDesktop) summary(wisp string) (string, error) {
	dir, err := d.home.Ensure("cache")
	if err != nil {
		return "", err
	}
	cmd := exec.Command(wisp, "logs")
	cmd.Env = d.env()
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("run wisp logs: %w", err)
	}
	path := filepath.Join(dir, "audit-summary.txt")
	if err := config.WriteFileAtomic(path, out); err != nil {
		return "", err
	}
	return path, nil
}

// env is wisp-bar's environment with wisp's home named, so the wisp it
// starts reads the same log.
func (d xdgDesktop) env() []string {
	return append(os.Environ(), "WISP_HOME="+d.home.Dir)
}

func (d xdgDesktop) start(cmd *exec.Cmd) error {
	cmd.Env = d.env()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("run %s: %w", filepath.Base(cmd.Path), err)
	}
	go cmd.Wait()
	return nil
}

func (xdgDesktop) OpenNotificationSettings() error {
	return errors.New("notification settings are your desktop's own on Linux")
}
