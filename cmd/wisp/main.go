// Command wisp is a local coding agent whose every shell command runs
// behind the operator's lists, under a kernel sandbox, with a person's
// approval where the risk calls for it.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	handOff(os.Args[1:]) // the lean build's faces are wisp-agent's (faces_lean.go)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, newApp(), os.Args[1:])
	stop()
	os.Exit(code)
}
