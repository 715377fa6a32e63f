package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/config"
)

// script writes an executable shell script named name into dir.
func script(t *testing.T, dir, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
}

// waitFile waits for path to hold want.
func waitFile(t *testing.T, path, want string) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for {
		data, _ := os.ReadFile(path)
		if strings.TrimSpace(string(data)) == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s holds %q, want %q", path, data, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// "Open audit log" shows what a person reads: `wisp logs --follow` in a
// terminal where there is one, else the summary `wisp logs` prints, opened
// with xdg-open; never the raw JSON lines. It says what is missing.
func TestOpenAuditLogShowsWhatAPersonReads(t *testing.T) {
	bin, opened := t.TempDir(), filepath.Join(t.TempDir(), "opened")
	home := config.Home{Dir: filepath.Join(t.TempDir(), ".wisp")}
	log := filepath.Join(home.Dir, "logs", "audit.jsonl")
	t.Setenv("PATH", bin)
	t.Setenv("TERMINAL", "")
	d := xdgDesktop{home: home}
	if err := d.OpenAuditLog(log); err == nil || !strings.Contains(err.Error(), "wisp writes it at its first command") {
		t.Errorf("opening a missing log: %v", err)
	}
	os.MkdirAll(filepath.Dir(log), 0o700)
	os.WriteFile(log, []byte(`{"event":"command.outcome"}`+"\n"), 0o600)
	if err := d.OpenAuditLog(log); err == nil || !strings.Contains(err.Error(), "wisp is neither beside wisp-bar nor on PATH") {
		t.Errorf("without wisp: %v", err)
	}
	script(t, bin, "wisp", `echo "summary of $WISP_HOME: $*"`+"\n")
	script(t, bin, "xdg-open", `/bin/cat "$1" > `+opened+"\n")
	if err := d.OpenAuditLog(log); err != nil {
		t.Fatal(err)
	}
	waitFile(t, opened, "summary of "+home.Dir+": logs")

	script(t, bin, "x-terminal-emulator", `echo "$WISP_HOME $*" > `+opened+"\n")
	if err := d.OpenAuditLog(log); err != nil {
		t.Fatal(err)
	}
	waitFile(t, opened, home.Dir+" -e "+filepath.Join(bin, "wisp")+" logs --follow")
}
