package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// "Open audit log" hands the file to xdg-open, and says what is missing
// when the file or xdg-open is.
func TestOpenAuditLogWithXDGOpen(t *testing.T) {
	bin, log := t.TempDir(), filepath.Join(t.TempDir(), "audit.jsonl")
	opened := filepath.Join(t.TempDir(), "opened")
	script := "#!/bin/sh\necho \"$@\" > " + opened + "\n"
	if err := os.WriteFile(filepath.Join(bin, "xdg-open"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	if err := (xdgDesktop{}).Open(log); err == nil || !strings.Contains(err.Error(), "wisp writes it at its first command") {
		t.Errorf("opening a missing log: %v", err)
	}
	os.WriteFile(log, []byte("{}\n"), 0o600)
	if err := (xdgDesktop{}).Open(log); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(guard)
	for {
		if data, _ := os.ReadFile(opened); strings.TrimSpace(string(data)) == log {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("xdg-open was not given the log")
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Setenv("PATH", t.TempDir())
	if err := (xdgDesktop{}).Open(log); err == nil || !strings.Contains(err.Error(), "xdg-open is not installed") {
		t.Errorf("without xdg-open: %v", err)
	}
}
