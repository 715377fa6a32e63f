//go:build !linux

package sandboxtest

import "errors"

func dialMPTCP(string) error { return errors.New("dial-mptcp is Linux only") }

func mptcpAvailable() bool { return false }
