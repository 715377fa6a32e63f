package sandboxtest

import (
	"os"
	"testing"
)

// Mkdirs makes each of dirs, with its parents, or fails the test.
func Mkdirs(t testing.TB, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// WriteFile writes data to path, or fails the test.
func WriteFile(t testing.TB, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
