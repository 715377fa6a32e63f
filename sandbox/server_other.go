//go:build !linux

package sandbox

import (
	"fmt"
	"os"
	"syscall"
)

// Server is Linux's served helper; there is none here.
type Server struct{}

// ServeRequest is one command for a Server.
type ServeRequest struct {
	Argv                  []string
	Dir                   string
	Env                   []string
	Stdin, Stdout, Stderr *os.File
	Session               bool
	Stopped               *int
}

// Start refuses: only Linux has a served helper.
func (s *Server) Start(req ServeRequest) (int, func() (syscall.WaitStatus, error), error) {
	return 0, nil, fmt.Errorf("%w: %w", ErrNotStarted, ErrUnsupportedOS)
}

// Close does nothing.
func (s *Server) Close() error { return nil }

// Serves is false: there is no served helper here.
func (s *Server) Serves(argv []string) bool { return false }
