package sandbox

import (
	"os"
	"testing"
)

// BenchmarkReadForms is the default secrets list resolved as NewSpec does.
func BenchmarkReadForms(b *testing.B) {
	home, _ := os.UserHomeDir()
	for b.Loop() {
		if _, err := readForms(DenyReadKey, DefaultDenyRead("linux"), home); err != nil {
			b.Fatal(err)
		}
	}
}
