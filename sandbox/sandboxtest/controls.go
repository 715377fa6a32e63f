package sandboxtest

import (
	"fmt"
	"os"
	"sync"
)

// A control runs a case unconfined, where the backend and its mode play no
// part, so one test binary needs each control once per user however many
// modes it runs the suite in. These remember what has been learned.
var (
	passedControls sync.Map // "uid/key" -> struct{}: the control passed
	unconfinedRuns sync.Map // "uid/key" -> bool: the line succeeded unconfined
)

// controlOnce runs control, which fails the test if the case proves
// nothing, unless a control of the same key passed already in this process
// as the same user.
func (s *suite) controlOnce(key string, control func()) {
	s.t.Helper()
	k := s.controlKey(key)
	if _, ok := passedControls.Load(k); ok {
		s.t.Logf("control %s: passed already in this run", key)
		return
	}
	control()
	passedControls.Store(k, struct{}{})
}

// worksUnconfined says whether line succeeds unconfined here, running it
// the first time it is asked for key, as this suite's user.
func (s *suite) worksUnconfined(key, line string) bool {
	s.t.Helper()
	k := s.controlKey(key)
	if ok, known := unconfinedRuns.Load(k); known {
		return ok.(bool)
	}
	out, code := s.plain(line)
	if code != 0 {
		s.t.Logf("%s fails here even unconfined (status %d):\n%s", key, code, out)
	}
	unconfinedRuns.Store(k, code == 0)
	return code == 0
}

func (s *suite) controlKey(key string) string {
	uid := os.Geteuid()
	if s.o.Credential != nil {
		uid = int(s.o.Credential.Uid)
	}
	return fmt.Sprintf("%d/%s", uid, key)
}
