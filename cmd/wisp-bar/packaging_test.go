package main

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// makeApp runs a target of mk/app.mk from the repository's top, as the
// Makefile's include does.
func makeApp(t *testing.T, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	cmd := exec.Command("make", append([]string{"-s", "-C", "../..", "-f", "mk/app.mk"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// The bundle make app builds: the identifier macOS files notification
// settings under, an accessory app (no Dock tile), alerts asked for, the
// version from the build, and the oldest macOS the Go it is built with
// runs on (Go 1.25 and later need macOS 12).
func TestAppBundleInfoPlist(t *testing.T) {
	dist := t.TempDir()
	makeApp(t, "app-bundle", "DIST="+dist, "VERSION=v1.4.2-3-gabcdef")
	info := readPlist(t, filepath.Join(dist, "Wisp Bar.app", "Contents", "Info.plist"))
	want := map[string]any{
		"CFBundleIdentifier": "sh.wisp.bar", "CFBundleExecutable": "wisp-bar", "CFBundleName": "Wisp Bar",
		"CFBundlePackageType": "APPL", "LSUIElement": true, "NSUserNotificationAlertStyle": "alert",
		"CFBundleShortVersionString": "1.4.2", "CFBundleVersion": "1.4.2", "WispBuildVersion": "v1.4.2-3-gabcdef",
		"LSMinimumSystemVersion": "12.0",
	}
	for key, value := range want {
		if info[key] != value {
			t.Errorf("%s = %#v, want %#v", key, info[key], value)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(dist, "Wisp Bar.app", "Contents", "PkgInfo")); string(data) != "APPL????" {
		t.Errorf("PkgInfo %q", data)
	}
}

func TestLaunchAgentStartsTheBundledBinary(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sh.wisp.bar.plist")
	makeApp(t, "launch-agent", "AGENT_OUT="+out, "APPDIR=/Applications", "AGENT_LOG=/Users/ada/Library/Logs/wisp-bar.log")
	agent := readPlist(t, out)
	if agent["Label"] != "sh.wisp.bar" || agent["RunAtLoad"] != true || agent["StandardErrorPath"] != "/Users/ada/Library/Logs/wisp-bar.log" {
		t.Errorf("agent %v", agent)
	}
	if args := fmt.Sprint(agent["ProgramArguments"]); args != "[/Applications/Wisp Bar.app/Contents/MacOS/wisp-bar]" {
		t.Errorf("ProgramArguments %s: the binary must run from inside its bundle", args)
	}
	if keep := fmt.Sprint(agent["KeepAlive"]); keep != "map[SuccessfulExit:false]" {
		t.Errorf("KeepAlive %s: restart after a crash, not after Quit", keep)
	}
}

func TestMakeAppRefusesOffMacOS(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	if out, _ := exec.Command("uname", "-s").Output(); strings.TrimSpace(string(out)) == "Darwin" {
		t.Skip("this is macOS")
	}
	out, err := exec.Command("make", "-s", "-C", "../..", "-f", "mk/app.mk", "app", "DIST="+t.TempDir()).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "make app builds Wisp Bar.app and needs macOS") {
		t.Errorf("make app off macOS: %v\n%s", err, out)
	}
}

func TestAutostartEntry(t *testing.T) {
	dir := t.TempDir()
	makeApp(t, "install-autostart", "AUTOSTART_DIR="+dir, "PREFIX=/opt/wisp")
	f, err := os.Open(filepath.Join(dir, "wisp-bar.desktop"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	entry := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if key, value, ok := strings.Cut(sc.Text(), "="); ok {
			entry[key] = value
		}
	}
	for key, value := range map[string]string{"Type": "Application", "Exec": "/opt/wisp/bin/wisp-bar", "Terminal": "false", "NoDisplay": "true"} {
		if entry[key] != value {
			t.Errorf("%s=%q, want %q", key, entry[key], value)
		}
	}
	if path, err := exec.LookPath("desktop-file-validate"); err == nil {
		if out, err := exec.Command(path, f.Name()).CombinedOutput(); err != nil {
			t.Errorf("desktop-file-validate: %v\n%s", err, out)
		}
	}
}

// readPlist reads an XML property list's top dictionary.
func readPlist(t *testing.T, path string) map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := xml.NewDecoder(f)
	dec.Strict = true
	for {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("%s has no dict: %v", path, err)
		}
		if start, ok := tok.(xml.StartElement); ok && start.Name.Local == "dict" {
			d, err := plistDict(dec)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			return d
		}
	}
}

func plistDict(dec *xml.Decoder) (map[string]any, error) {
	d := map[string]any{}
	for {
		start, end, err := nextElement(dec)
		if err != nil || end {
			return d, err
		}
		if start.Name.Local != "key" {
			return nil, fmt.Errorf("<%s> where a <key> belongs", start.Name.Local)
		}
		var key string
		if err := dec.DecodeElement(&key, &start); err != nil {
			return nil, err
		}
		if d[key], err = plistValue(dec); err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
	}
}

func plistValue(dec *xml.Decoder) (any, error) {
	start, end, err := nextElement(dec)
	if err != nil || end {
		return nil, fmt.Errorf("a value is missing (%v)", err)
	}
	switch start.Name.Local {
	case "string", "integer":
		var s string
		return s, dec.DecodeElement(&s, &start)
	case "true", "false":
		return start.Name.Local == "true", dec.Skip()
	case "dict":
		return plistDict(dec)
	case "array":
		var list []any
		for {
			v, err := plistValue(dec)
			if err != nil {
				return list, nil // the array's end
			}
			list = append(list, v)
		}
	}
	return nil, fmt.Errorf("unknown element <%s>", start.Name.Local)
}

// nextElement skips text and comments to the next start or end element.
func nextElement(dec *xml.Decoder) (xml.StartElement, bool, error) {
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return xml.StartElement{}, true, nil
		}
		if err != nil {
			return xml.StartElement{}, false, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			return tok, false, nil
		case xml.EndElement:
			return xml.StartElement{}, true, nil
		}
	}
}
