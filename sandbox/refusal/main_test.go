package refusal

import (
	"flag"
	"fmt"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "recapture testdata/corpus/linux-*.txt from real tools under Landlock")

// confineEnv switches the test binary into the confined helper: it applies
// the spec it carries and execs /bin/sh -c LINE (confine_linux_test.go).
// The sandbox package's own helper is built in parallel; this one is the
// smallest that makes the kernel refuse as it will.
const confineEnv = "WISP_REFUSAL_TEST_CONFINE"

func TestMain(m *testing.M) {
	if spec := os.Getenv(confineEnv); spec != "" {
		err := confineAndExec(spec)
		fmt.Fprintln(os.Stderr, "refusal test helper:", err)
		os.Exit(99)
	}
	os.Exit(m.Run())
}
