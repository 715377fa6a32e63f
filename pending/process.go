package pending

import (
	"errors"
	"os"
)

// errProcessGone: no live process has that pid.
var errProcessGone = errors.New("no such process")

// self names this process as a request's requester.
func self() (Requester, error) {
	pid := os.Getpid()
	start, err := processStartTime(pid)
	if err != nil {
		return Requester{}, err
	}
	return Requester{PID: pid, StartTime: start}, nil
}

// requesterGone reports whether the process that filed a request has ended:
// its pid is free, or taken by a process that started at another time.
// When this system cannot tell, the requester is taken to be alive: a
// request is only ever removed for a reason.
func requesterGone(r Requester) bool {
	start, err := processStartTime(r.PID)
	if errors.Is(err, errProcessGone) {
		return true
	}
	return err == nil && start != r.StartTime
}
