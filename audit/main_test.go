package audit

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/config"
)

// writerEnv, when set, makes the test binary a log writer for
// TestConcurrentWriters instead of running tests: "home|writer|count|rotateAt|keep".
const writerEnv = "AUDIT_TEST_WRITER"

func TestMain(m *testing.M) {
	if spec := os.Getenv(writerEnv); spec != "" {
		if err := runWriter(spec); err != nil {
			fmt.Fprintln(os.Stderr, "writer:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// seqEvent is a test event: which writer wrote it, its sequence number,
// and padding that makes a torn or interleaved line easy to see.
type seqEvent struct {
	Writer int    `json:"writer"`
	Seq    int    `json:"seq"`
	Pad    string `json:"pad"`
}

func (seqEvent) EventName() string { return "test.seq" }

// runWriter waits for its stdin to close (so that every writer starts at
// once), then logs count events.
func runWriter(spec string) error {
	parts := strings.Split(spec, "|")
	writer, _ := strconv.Atoi(parts[1])
	count, _ := strconv.Atoi(parts[2])
	rotateAt, _ := strconv.ParseInt(parts[3], 10, 64)
	keep, _ := strconv.Atoi(parts[4])
	io.Copy(io.Discard, os.Stdin)
	l := New(config.Home{Dir: parts[0]}, "w"+parts[1], os.Getpid(), time.Now)
	l.rotateAt, l.keep = rotateAt, keep
	defer l.Close()
	pad := strings.Repeat(string(rune('a'+writer%26)), 150)
	for seq := range count {
		if err := l.Log(seqEvent{Writer: writer, Seq: seq, Pad: pad}); err != nil {
			return err
		}
	}
	return nil
}
