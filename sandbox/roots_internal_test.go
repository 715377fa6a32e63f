package sandbox

import (
	"slices"
	"testing"
)

// TestDarwinTempDirsFromTheSystem: with $TMPDIR unset (ssh, launchd,
// cron) the per-user folders still come from the system's answer.
func TestDarwinTempDirsFromTheSystem(t *testing.T) {
	e := env{getenv: func(string) string { return "" }, home: "/Users/ana", goos: "darwin",
		darwinDirs: func() (string, string) { return "/var/folders/x1/abc/T/", "/var/folders/x1/abc/C/" }}
	dirs := e.tempDirs()
	for _, want := range []string{"/var/folders/x1/abc/T/", "/var/folders/x1/abc/C/", "/var/folders/x1/abc"} {
		if !slices.Contains(dirs, want) {
			t.Errorf("temp dirs %q lack %s", dirs, want)
		}
	}
	e.getenv = func(k string) string { return map[string]string{"TMPDIR": "/Users/ana/tmp"}[k] }
	if dirs := e.tempDirs(); !slices.Contains(dirs, "/Users/ana/tmp") || !slices.Contains(dirs, "/var/folders/x1/abc/T/") {
		t.Errorf("a customised $TMPDIR must add to the system's folders, not replace them: %q", dirs)
	}
	linux := env{getenv: e.getenv, home: "/home/ana", goos: "linux", darwinDirs: e.darwinDirs}
	if dirs := linux.tempDirs(); slices.Contains(dirs, "/var/folders/x1/abc/C/") {
		t.Errorf("a Linux spec asked for macOS's folders: %q", dirs)
	}
}
