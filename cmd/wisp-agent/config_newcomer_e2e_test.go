package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 28's wrong config value and broken config, as a person meets them
// in the terminal: the value is blamed with the fix, a misspelt key gets
// the nearest, and doctor says where a broken file goes wrong, once.

func TestConfigSetBlamesTheValueAndSaysTheFix(t *testing.T) {
	e := newE2E(t)
	out, err := e.cmd("config", "set", "model.baseURL", "127.0.0.1:34995").CombinedOutput()
	want := `wisp: error: model.baseURL must be an http or https URL with a host, such as http://127.0.0.1:11434/v1, not "127.0.0.1:34995"; for that server: wisp config set model.baseURL http://127.0.0.1:34995/v1` + "\n"
	if err == nil || string(out) != want {
		t.Errorf("config set model.baseURL 127.0.0.1:34995: %v\n got  %s\n want %s", err, out, want)
	}
	out, err = e.cmd("config", "set", "model.baseUrl", "http://127.0.0.1:34995/v1").CombinedOutput()
	want = "wisp: error: model.baseUrl is not a known key (did you mean model.baseURL?)\n"
	if err == nil || string(out) != want {
		t.Errorf("config set model.baseUrl: %v\n got  %s\n want %s", err, out, want)
	}
	if got := e.wisp("config", "set", "limits.commandTimeoutSeconds", "300"); got != "limits.commandTimeoutSeconds = 300\n" {
		t.Errorf("config set limits.commandTimeoutSeconds 300: %s", got)
	}
	if got := e.wisp("config", "get", "commandPolicy.sandbox.allowedDomains"); got != "[]\n" {
		t.Errorf("config get of an empty list: %q", got)
	}
}

func TestDoctorSaysWhereConfigIsBrokenOnce(t *testing.T) {
	e := newE2E(t)
	file := filepath.Join(e.home, "config.json")
	if err := os.WriteFile(file, []byte("{\n  \"model\": {\n    \"baseURL\": }\n}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _ := e.cmd("doctor").CombinedOutput()
	problem := file + " is invalid: not valid JSON at line 3, column 16: invalid character '}' looking for beginning of value, in the line `\"baseURL\": }`"
	if !strings.Contains(string(out), "FAIL config   "+problem+"\n") || strings.Count(string(out), "not valid JSON") != 1 {
		t.Errorf("doctor should say once, on the config line:\n%s\ngot:\n%s", problem, out)
	}
	if !strings.Contains(string(out), "FAIL approval not checked: config.json is invalid (see the config line)\n") {
		t.Errorf("doctor's approval line does not point to the config line:\n%s", out)
	}
}
