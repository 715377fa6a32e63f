package landlock

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// serverFD is the served helper's end of the socket wisp talks to it on.
const serverFD = 3

// maxMessage bounds one request or reply (argv and environment included).
const maxMessage = 1 << 20

// startRequest asks the served helper to start one command. Its stdin,
// stdout and stderr travel with it as SCM_RIGHTS, in that order.
type startRequest struct {
	ID      uint64   `json:"id"`
	Argv    []string `json:"argv"`
	Dir     string   `json:"dir"`
	Env     []string `json:"env"`
	Session bool     `json:"session"` // a new session with stdin as its terminal, not a new group
}

// startReply answers a request twice: once started (Pid, or Err), and
// once the command has ended (Done, with its wait status, and how many
// processes it left running that the helper stopped). A reply with a pid
// carries a pidfd of that process (SCM_RIGHTS): in the helper's PID
// namespace its pid is not the one wisp sees, and the pidfd tells wisp
// which process it is.
type startReply struct {
	ID      uint64 `json:"id"`
	Pid     int    `json:"pid,omitempty"`
	Err     string `json:"err,omitempty"`
	Done    bool   `json:"done,omitempty"`
	Status  uint32 `json:"status,omitempty"`
	Stopped int    `json:"stopped,omitempty"`

	pidfd    *os.File // received with the reply, or nil
	pidfdNum int      // its descriptor
}

// serveRequests is the served helper's loop, run on the locked thread
// that holds the namespace, no_new_privs, Landlock and seccomp: every
// command forks from this very thread, so it is confined as a single
// command would be. It returns when wisp closes its end, after ending
// every command still running: none outlives the helper.
//
// Unless background processes are allowed, the helper is the reaper of
// every process its commands start (the init of its PID namespace, or a
// child subreaper without one), and when a command ends it ends what that
// command left running (processes.ended).
func serveRequests(conn *os.File, background bool) (int, error) {
	fd := int(conn.Fd())
	defer runtime.KeepAlive(conn) // its finalizer would close fd under the loop
	unix.CloseOnExec(fd)          // the commands must not inherit wisp's socket
	// Not dumpable: an unprivileged command in the same domain can neither
	// trace this helper nor take its socket to forge replies to wisp.
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return 0, fmt.Errorf("make the served helper undumpable: %w", err)
	}
	return 0, newProcesses(fd, background).serve()
}

// readRequest reads one request and the files that came with it into buf
// (maxMessage long), which it may use again: the request holds copies.
func readRequest(fd int, buf []byte) (startRequest, []*os.File, error) {
	var req startRequest
	data, files, err := recvWithFiles(fd, buf)
	if err != nil {
		return req, nil, err
	}
	if err := json.Unmarshal(data, &req); err != nil || len(files) != 3 || len(req.Argv) == 0 {
		closeAll(files)
		return req, nil, fmt.Errorf("a malformed request to the served helper")
	}
	return req, files, nil
}

// startServed starts req's command with files as its stdin, stdout and
// stderr, in a process group (or session) of its own whose id is its pid.
func startServed(req startRequest, files []*os.File) (*os.Process, error) {
	attr := &syscall.SysProcAttr{Setpgid: true}
	if req.Session {
		attr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	}
	return os.StartProcess(req.Argv[0], req.Argv, &os.ProcAttr{
		Dir: req.Dir, Env: req.Env, Files: files, Sys: attr,
	})
}

// recvWithFiles reads one message into buf, and the descriptors passed
// with it.
func recvWithFiles(fd int, buf []byte) ([]byte, []*os.File, error) {
	oob := make([]byte, unix.CmsgSpace(4*4))
	n, oobn, _, _, err := unix.Recvmsg(fd, buf, oob, unix.MSG_CMSG_CLOEXEC)
	if err != nil {
		return nil, nil, err
	}
	if n == 0 {
		return nil, nil, fmt.Errorf("the other end closed the socket")
	}
	return buf[:n], passedFiles(oob[:oobn]), nil
}

// passedFiles are the descriptors a message's control data passed.
func passedFiles(oob []byte) []*os.File {
	var files []*os.File
	for _, fd := range passedFDs(oob) {
		files = append(files, os.NewFile(uintptr(fd), "passed"))
	}
	return files
}

func passedFDs(oob []byte) []int {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return nil
	}
	var out []int
	for _, m := range msgs {
		if fds, err := unix.ParseUnixRights(&m); err == nil {
			out = append(out, fds...)
		}
	}
	return out
}

func closeAll(files []*os.File) {
	for _, f := range files {
		f.Close()
	}
}
