package sandboxtest

import (
	"fmt"
	"io"
	"net"
	"os"
	"time"
)

// ProbeCommand is the first argument that makes a test binary act as the
// suite's probe instead of running tests: the suite cannot count on nc or
// python being installed, so the test binary dials and waits itself.
const ProbeCommand = "__sandboxtest-probe"

// MaybeProbe runs the probe and exits when the arguments ask for it. Call it
// first in the TestMain of a package that runs the suite.
func MaybeProbe() {
	if len(os.Args) > 2 && os.Args[1] == ProbeCommand {
		os.Exit(probe(os.Args[2], os.Args[3:]))
	}
}

// probe does one thing a confined command might be refused:
//
//	dial ADDR             TCP connect to ADDR
//	dial-read ADDR        TCP connect to ADDR and read its greeting to the end
//	dial-mptcp ADDR       Multipath TCP connect to ADDR (Linux)
//	send-udp ADDR         send one UDP datagram to ADDR
//	dial-abstract NAME    connect to the abstract Unix socket @NAME
//	dial-unix PATH        connect to the Unix socket at PATH
//	wait                  block until stdin closes (a process to signal)
//	tiocsti               push a character into the controlling terminal's
//	                      input with TIOCSTI (Linux)
//	seize-parent          PTRACE_SEIZE every thread of the parent (Linux): it
//	                      succeeds if any one can be traced, and leaves them
//	                      untouched (a tracer that exits detaches)
//
// and what containmentProbe, watchProbe, proxyProbe and socketProbe do.
func probe(op string, args []string) int {
	var err error
	switch {
	case op == "dial" && len(args) == 1:
		err = dial("tcp", args[0])
	case op == "dial-read" && len(args) == 1:
		err = dialRead(args[0])
	case op == "dial-mptcp" && len(args) == 1:
		err = dialMPTCP(args[0])
	case op == "send-udp" && len(args) == 1:
		err = sendUDP(args[0])
	case op == "dial-abstract" && len(args) == 1:
		err = dial("unix", "@"+args[0])
	case op == "dial-unix" && len(args) == 1:
		err = dial("unix", args[0])
	case op == "tiocsti" && len(args) == 0:
		err = tiocsti()
	case op == "seize-parent" && len(args) == 0:
		err = seizeParent()
	case op == "wait":
		_, err = io.Copy(io.Discard, os.Stdin)
	default:
		var ok bool
		for _, p := range []func(string, []string) (bool, error){containmentProbe, watchProbe, proxyProbe, socketProbe} {
			if ok, err = p(op, args); ok {
				break
			}
		}
		if !ok {
			err = fmt.Errorf("unknown probe %s %v", op, args)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "probe:", err)
		return 1
	}
	return 0
}

func dial(network, addr string) error {
	c, err := net.DialTimeout(network, addr, 5*time.Second)
	if err != nil {
		return err
	}
	fmt.Println("connected")
	return c.Close()
}

func sendUDP(addr string) error {
	c, err := net.Dial("udp", addr)
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = c.Write([]byte("probe"))
	return err
}
