package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// A suite is one run of the compatibility suite: where it keeps things,
// whom it runs as, and with what.
type suite struct {
	dir      string // the cache: fetch/, seed/, runs/, logs/ (absolute)
	wisp     string // bin/wisp
	bwrap    string // bubblewrap, or "" where it is not installed
	person   person
	path     string // PATH for the person's runs
	account  account
	timeout  time.Duration
	progress io.Writer // what the suite is doing, before the report
}

// basePath is a person's PATH, before the Go toolchain's folder.
const basePath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// personEnv is the environment of a person's login in home: nothing of the
// invoking user's (root's GOFLAGS, CI's TMPDIR) leaks into the runs.
func (s *suite) personEnv(home string) []string {
	return []string{
		"HOME=" + home,
		"USER=" + s.person.Name,
		"LOGNAME=" + s.person.Name,
		"PATH=" + s.path,
		"LANG=C.UTF-8",
		"SHELL=/bin/sh",
	}
}

// argv is how m runs line in the project folder dir, in home.
func (s *suite) argv(m mode, home, dir, line string) []string {
	switch m {
	case wisp:
		return []string{s.wisp, "run", "--", line}
	case bwrap:
		args := append([]string{s.bwrap}, bwrapArgs(dir, existing(defaultRoots(home)))...)
		return append(args, "--", "/bin/sh", "-c", line)
	}
	return []string{"/bin/sh", "-c", line}
}

// defaultRoots are the writable roots of wisp's default configuration for
// a person in home with Go's and cargo's defaults (docs/trust.md, "What a
// confined command may do"), besides the launch folder.
func defaultRoots(home string) []string {
	return []string{
		"/tmp", "/var/tmp", "/dev/shm",
		filepath.Join(home, ".cache"), // and GOCACHE, ~/.cache/go-build
		filepath.Join(home, ".cargo", "registry"),
		filepath.Join(home, ".cargo", "git"),
		filepath.Join(home, "go", "pkg", "mod"), // GOMODCACHE
	}
}

// existing keeps the paths that exist: wisp skips a root that does not,
// and so must bubblewrap, which cannot bind one.
func existing(paths []string) []string {
	var out []string
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// bwrapArgs is bubblewrap's confinement equivalent to wisp's default: the
// whole system read-only, the project and the roots writable, a /dev and a
// /proc of its own, in a PID namespace that ends with it. The network is
// shared, as wisp's default leaves it on.
func bwrapArgs(project string, roots []string) []string {
	args := []string{"--die-with-parent", "--unshare-pid", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"}
	for _, r := range append(slices.Clone(roots), project) {
		args = append(args, "--bind", r, r)
	}
	return append(args, "--chdir", project)
}

// execAs runs argv in dir as the person with env, its output into out,
// and returns how long it took and whether it exited 0. A run past the
// time limit is killed with its process group.
func (s *suite) execAs(argv []string, dir string, env []string, out io.Writer) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = dir, env, out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if s.person.Switch {
		groups := make([]uint32, len(s.person.Groups))
		for i, g := range s.person.Groups {
			groups[i] = uint32(g)
		}
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(s.person.UID), Gid: uint32(s.person.GID), Groups: groups}
	}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if ctx.Err() != nil {
		err = fmt.Errorf("ended after the time limit of %s", s.timeout)
	}
	return wall, err
}

// output runs a fetch step as the invoking user, in no particular folder,
// with env added to the invoking user's environment, and returns its
// standard output; an error carries its standard error.
func (s *suite) output(env []string, name string, args ...string) (string, error) {
	return s.outputIn("", env, name, args...)
}

func (s *suite) outputIn(dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// runProject runs p's command in m, in a home of its own made afresh
// from the account, and keeps the run's output in its log: NAME.MODE.log,
// and NAME.MODE.try2.log for a second try.
func (s *suite) runProject(p project, src string, m mode, try int) (run, error) {
	if m == bwrap && s.bwrap == "" {
		return run{}, nil
	}
	if err := s.accountHome(); err != nil {
		return run{}, err
	}
	home := s.home()
	dir, err := s.projectCopy(p, src)
	if err != nil {
		return run{}, err
	}
	logName := p.Name + "." + string(m) + ".log"
	if try > 1 {
		logName = fmt.Sprintf("%s.%s.try%d.log", p.Name, m, try)
	}
	logPath := filepath.Join(s.dir, "logs", string(s.account), logName)
	argv := s.argv(m, home, dir, p.Command)
	var log bytes.Buffer
	fmt.Fprintf(&log, "$ %s\n(in %s, as uid %d)\n", strings.Join(argv, " "), dir, s.person.UID)
	wall, runErr := s.execAs(argv, dir, s.personEnv(home), &log)
	if runErr != nil {
		fmt.Fprintf(&log, "\ncompat: %s: %v\n", m, runErr)
	}
	fmt.Fprintf(&log, "\ncompat: wall %s\n", wall.Round(time.Millisecond))
	if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
		return run{}, err
	}
	if err := os.WriteFile(logPath, log.Bytes(), 0o644); err != nil {
		return run{}, err
	}
	if err := s.keepHome(p, m); err != nil {
		return run{}, err
	}
	return run{Ran: true, Passed: runErr == nil, Tries: try, Wall: wall, Log: log.String(), Path: logPath}, nil
}

// timeShTrue is the median of a bare `sh -c true` as the person, over n
// runs: the machine's pace now, beside the suite's figures.
func (s *suite) timeShTrue(n int) (time.Duration, error) {
	times := make([]float64, 0, n)
	for range n {
		wall, err := s.execAs([]string{"/bin/sh", "-c", "true"}, "/", s.personEnv("/nonexistent"), io.Discard)
		if err != nil {
			return 0, fmt.Errorf("sh -c true as uid %d: %w", s.person.UID, err)
		}
		times = append(times, float64(wall))
	}
	return time.Duration(median(times)), nil
}

// lookPath finds name on the person's PATH.
func (s *suite) lookPath(name string) (string, error) {
	for _, dir := range filepath.SplitList(s.path) {
		p := filepath.Join(dir, name)
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() && info.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	return "", errors.New(name + " is not on the PATH " + s.path)
}
