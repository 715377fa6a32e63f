package runner

import (
	"reflect"
	"sync"

	"github.com/wisp-sh/wisp/sandbox"
)

// served keeps one served sandbox helper for the runner's current
// confinement (the spec, and which protected paths exist to be bound),
// started at the first confined command, so that a confined command costs
// a fork of the helper rather than a start of wisp. A changed spec (a root
// added, a .git/hooks created) gets a new helper; one that fails is dropped, and the commands
// go through the per-command helper, confined as before.
type served struct {
	mu     sync.Mutex
	server sandbox.Server
	spec   sandbox.Spec
	broken bool // the backend could not serve this spec: do not retry it
}

// serverFor returns the helper serving spec exactly as argv (the
// per-command helper's, computed now) would confine, starting it if need
// be, or nil when the backend has none (the caller uses argv).
func (s *served) serverFor(b sandbox.Backend, spec sandbox.Spec, argv []string) sandbox.Server {
	serving, ok := b.(sandbox.Serving)
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !reflect.DeepEqual(s.spec, spec) || (s.server != nil && !s.server.Serves(argv)) {
		s.closeLocked()
		s.spec, s.broken = spec, false
	}
	if s.server != nil || s.broken {
		return s.server
	}
	server, err := serving.Serve(spec)
	if err != nil {
		s.broken = true
		return nil
	}
	if !server.Serves(argv) { // what exists changed in between: next time
		go server.Close()
		return nil
	}
	s.server = server
	return server
}

// drop closes server if it is still the current one.
func (s *served) drop(server sandbox.Server) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.server == server {
		s.closeLocked()
		s.broken = true
	}
}

func (s *served) closeLocked() {
	if s.server != nil {
		go s.server.Close() // do not wait for it; commands it started that still run end with it
		s.server = nil
	}
}

// Close stops wisp's network proxy, and ends the served sandbox helper,
// if one runs, and the commands it started that still run.
func (r *Runner) Close() {
	r.closeNetwork()
	r.served.mu.Lock()
	defer r.served.mu.Unlock()
	r.served.closeLocked()
}
