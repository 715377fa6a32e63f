//go:build cgo

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/darwin"
)

// OpenAuditLog opens Terminal on `wisp logs --follow`: a .command file,
// which macOS opens in Terminal, written under wisp's cache. The raw JSON
// lines are for programs.
func (d macDesktop) OpenAuditLog(file string) error {
	if _, err := os.Stat(file); err != nil {
		return fmt.Errorf("open %s: %w (wisp writes it at its first command)", file, err)
	}
	wisp, err := wispProgram()
	if err != nil {
		return err
	}
	dir, err := d.home.Ensure("cache")
	if err != nil {
		return err
	}
	path := filepath.Join(dir, "wisp-logs.command")
	text := fmt.Sprintf("#!/bin/sh\nWISP_HOME=%s exec %s logs --follow\n", shellQuote(d.home.Dir), shellQuote(wisp))
	if err := config.WriteFileAtomic(path, []byte(text)); err != nil {
		return err
	}
	if err := os.Chmod(path, 0o700); err != nil {
		return fmt.Errorf("make %s runnable: %w", path, err)
	}
	return darwin.OpenFile(path)
}

// shellQuote quotes s for sh, whatever it holds.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
