// Command wisp-bar is wisp's menu-bar helper: it shows the requests waiting
// in wisp's pending folder in the menu bar (the tray on Linux), raises a
// banner for each, and writes the person's answer through package pending.
//
// main is wiring only: package bar is the core, fyne.io/systray the menu,
// freedesktop (Linux) or darwin (macOS) the banners. systray.Run owns the
// main goroutine, as it must on macOS, where it runs the one app loop.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/wisp-sh/wisp/internal/config"
)

// version is set by the build (make app, make install).
var version = "dev"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// usage is what --help prints.
const usage = `usage: wisp-bar [--help] [--version]

wisp-bar shows wisp's waiting approval requests in the menu bar (the tray on
Linux) with a banner for each, and writes the answer a person clicks. It runs
until Quit in its menu, SIGINT or SIGTERM, and withdraws its banners as it ends.

  --help     print this and exit
  --version  print the version and exit

Without a menu bar or banners, answer with ` + "`wisp approvals`" + `.`

// run is main without the exit; it returns the exit code: 0 after Quit, a
// signal, --help or --version, 1 when wisp-bar cannot start or its session
// ends under it, 2 for a usage error.
func run(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("wisp-bar", flag.ContinueOnError)
	flags.SetOutput(io.Discard) // errors are printed below, in wisp's voice
	showVersion := flags.Bool("version", false, "print the version and exit")
	err := flags.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(stdout, usage)
		return 0
	}
	if err == nil && flags.NArg() > 0 {
		err = fmt.Errorf("wisp-bar takes no arguments, and was given %q", flags.Args())
	}
	if err != nil {
		fmt.Fprintf(stderr, "wisp-bar: error: %v\n%s\n", err, usage)
		return 2
	}
	if *showVersion {
		fmt.Fprintln(stdout, "wisp-bar", version)
		return 0
	}
	home, err := config.DefaultHome()
	if err != nil {
		return fail(stderr, err)
	}
	// An answer wisp-bar writes approves a command: a home another user
	// could change (a pending folder of theirs, a swapped link) is refused
	// here as wisp refuses it.
	if err := home.Check(os.Geteuid()); err != nil {
		var unsafe *config.UnsafeError
		if errors.As(err, &unsafe) {
			return fail(stderr, err, unsafe.Hint())
		}
		return fail(stderr, err)
	}
	return serve(home, stderr)
}

// fail prints err and hints in wisp's voice and returns exit code 1.
func fail(stderr io.Writer, err error, hints ...string) int {
	fmt.Fprintf(stderr, "wisp-bar: error: %v\n", err)
	for _, hint := range hints {
		fmt.Fprintf(stderr, "wisp-bar: hint: %s\n", hint)
	}
	return 1
}
