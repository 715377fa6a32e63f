package chat

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHistoryKeepsTheNewestLinesAcrossSessions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	var b strings.Builder
	for i := range 2*historyKeep + 1 {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	os.WriteFile(path, []byte(b.String()), 0o600)
	h, err := OpenHistory(path)
	if err != nil {
		t.Fatal(err)
	}
	if h.Len() != historyKeep || h.At(0) != fmt.Sprintf("line %d", 2*historyKeep) {
		t.Fatalf("kept %d lines, newest %q", h.Len(), h.At(0))
	}
	h.Add("next")
	h.Add("next") // a repeat is not kept twice
	h.Add("   ")
	h.Close()
	again, err := OpenHistory(path)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if again.Len() != historyKeep+1 || again.At(0) != "next" || again.At(1) != fmt.Sprintf("line %d", 2*historyKeep) {
		t.Errorf("after a session: %d lines, newest %q, %q", again.Len(), again.At(0), again.At(1))
	}
}
