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
	code := run(interruptible(), newApp(), os.Args[1:])
	os.Exit(code)
}

// interruptible is a context that a SIGINT or SIGTERM cancels, as
// signal.NotifyContext's is, but watched from a goroutine: the runtime
// enables each signal with a round trip to a thread of its own, 0.1–0.2 ms
// that every wisp paid before its first line of work, `wisp version`
// included. Until the watch is in place, a signal ends wisp as it did
// before main. It is never stopped: wisp exits when run returns.
func interruptible() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		signals := make(chan os.Signal, 1)
		signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
		<-signals
		cancel()
	}()
	return ctx
}
