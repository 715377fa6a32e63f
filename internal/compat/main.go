// Command compat is wisp's compatibility suite of real projects (issue
// 32): each project's own build and test command, fetched by its ordinary
// client, run bare, under `wisp run --` with the default configuration,
// and under bubblewrap where it is installed, as an unprivileged person in
// a home of its own, one line a project and a summary.
//
//	go run ./internal/compat [-dir bin/.compat] [-wisp bin/wisp] [-account warm|fresh] [-projects a,b] [-timeout 10m]
//
// It exits 1 when a project that passes bare fails under wisp, unless
// docs/trust.md names the difference (the trusted table) or it is one of
// issue 32's known items (the known table, report-only until each is
// fixed; see tables.go); and when a project fails bare (the suite would
// measure nothing), or a known entry no longer matches. It exits 2 when it
// cannot run at all.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	os.Exit(mainStatus(os.Args[1:], os.Stdout, os.Stderr))
}

type options struct {
	dir, wisp, projects string
	account             account
	timeout             time.Duration
	list                bool
}

func parseOptions(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("compat", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.dir, "dir", "bin/.compat", "the suite's cache: what was fetched, the warm account, each run's home and log")
	fs.StringVar(&o.wisp, "wisp", "bin/wisp", "the wisp to run the projects under (make build)")
	fs.StringVar(&o.projects, "projects", "", "the projects to run, comma-separated (default every one; -list names them)")
	acct := fs.String("account", string(warm), "warm: a person's account with the caches of earlier builds; fresh: one that never ran go or npm (no ~/.cache, ~/go, ~/.npm)")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Minute, "the time limit of one run")
	fs.BoolVar(&o.list, "list", false, "list the projects and exit")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	o.account = account(*acct)
	if o.account != warm && o.account != fresh {
		return o, fmt.Errorf("-account is %q: it is warm or fresh", *acct)
	}
	return o, nil
}

func mainStatus(args []string, stdout, stderr io.Writer) int {
	o, err := parseOptions(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "compat: %v\n", err)
		return 2
	}
	ps, err := selectProjects(o.projects)
	if err != nil {
		fmt.Fprintf(stderr, "compat: %v\n", err)
		return 2
	}
	if o.list {
		for _, p := range ps {
			fmt.Fprintf(stdout, "%-20s %s\n    $ %s\n", p.Name, p.About, p.Command)
		}
		return 0
	}
	s, err := newSuite(o, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "compat: %v\n", err)
		return 2
	}
	start := time.Now()
	verdicts, shTrue, err := s.runAll(ps, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "compat: %v\n", err)
		return 2
	}
	printSummary(stdout, s.account, summarize(verdicts), shTrue, loadAverage())
	fmt.Fprintf(stdout, "compat: took %s, fetching and warming the account included\n", time.Since(start).Round(time.Second))
	if failed(verdicts) {
		return 1
	}
	return 0
}

// newSuite checks that the suite can run here, and says with what.
func newSuite(o options, progress io.Writer) (*suite, error) {
	p, err := whoRuns(os.Getenv)
	if err != nil {
		return nil, err
	}
	s := &suite{person: p, account: o.account, timeout: o.timeout, progress: progress}
	if s.dir, err = filepath.Abs(o.dir); err != nil {
		return nil, err
	}
	if s.wisp, err = filepath.Abs(o.wisp); err != nil {
		return nil, err
	}
	if _, err := os.Stat(s.wisp); err != nil {
		return nil, fmt.Errorf("no wisp to run the projects under: %w (make build)", err)
	}
	s.path = basePath
	if goBin, err := exec.LookPath("go"); err == nil {
		s.path = filepath.Dir(goBin) + ":" + basePath
	}
	if err := s.checkTools(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return nil, err
	}
	if err := s.checkDir(); err != nil {
		return nil, err
	}
	if s.wisp, err = installWisp(s.wisp, filepath.Join(s.dir, "wisp")); err != nil {
		return nil, err
	}
	return s, nil
}

// installWisp copies wisp and the binaries beside it that it runs
// (wisp-sandbox, wisp-agent) into dir, as an install would, and returns
// the copy of wisp: the person may not reach the folder they were built
// in (a clone in root's home), and wisp runs a helper only from a folder
// no one else may write.
func installWisp(wisp, dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return "", err
	}
	for _, name := range []string{filepath.Base(wisp), "wisp-sandbox", "wisp-agent"} {
		from := filepath.Join(filepath.Dir(wisp), name)
		info, err := os.Stat(from)
		if errors.Is(err, os.ErrNotExist) && name != filepath.Base(wisp) {
			continue
		}
		if err != nil {
			return "", err
		}
		tmp := filepath.Join(dir, "."+name+".new")
		os.Remove(tmp)
		if err := copyFile(from, tmp, info); err != nil {
			return "", err
		}
		if err := os.Chmod(tmp, 0o755); err != nil {
			return "", err
		}
		if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
			return "", err
		}
	}
	return filepath.Join(dir, filepath.Base(wisp)), nil
}

// tools are the commands the projects and their fetching need, on the
// person's PATH, and the Debian package that brings each.
var tools = [][2]string{
	{"go", "Go (/usr/local/go)"}, {"git", "git"}, {"make", "make"}, {"cc", "gcc"},
	{"node", "nodejs"}, {"npm", "npm"}, {"python3", "python3 and python3-venv"},
	{"apt-get", "apt"}, {"dpkg-source", "dpkg-dev"}, {"dpkg-deb", "dpkg"},
}

func (s *suite) checkTools() error {
	var missing []string
	for _, t := range tools {
		if _, err := s.lookPath(t[0]); err != nil {
			missing = append(missing, t[0]+" ("+t[1]+")")
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("the projects need %s on the PATH %s: install them (.ci/run lists each)", strings.Join(missing, ", "), s.path)
	}
	if b, err := s.lookPath("bwrap"); err == nil {
		s.bwrap = b
	}
	return nil
}

// checkDir refuses a cache the person cannot reach, or one inside a
// writable root of wisp's default configuration: a home there would be
// writable under wisp, and the suite would miss what a person meets.
func (s *suite) checkDir() error {
	real, err := filepath.EvalSymlinks(s.dir)
	if err != nil {
		return err
	}
	for _, root := range []string{os.TempDir(), "/tmp", "/var/tmp", "/dev/shm"} {
		if r, err := filepath.EvalSymlinks(root); err == nil && within(real, r) {
			return fmt.Errorf("-dir %s lies in %s, which wisp lets every command write: homes there would hide what a person meets; give a folder elsewhere (the default is bin/.compat)", s.dir, root)
		}
	}
	for d := real; ; d = filepath.Dir(d) {
		if err := s.searchable(d); err != nil {
			return err
		}
		if d == "/" {
			return nil
		}
	}
}

func within(path, root string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

func (s *suite) runAll(ps []project, stdout io.Writer) ([]verdict, time.Duration, error) {
	fmt.Fprintf(stdout, "compat: %s account, as uid %d (%s); %s; bubblewrap: %s; logs in %s\n",
		s.account, s.person.UID, s.person.Name, s.wispVersion(), s.bwrapVersion(), filepath.Join(s.dir, "logs", string(s.account)))
	sources, err := s.fetchAll(ps)
	if err != nil {
		return nil, 0, err
	}
	if s.account == warm {
		if err := s.warmSeed(ps, sources); err != nil {
			return nil, 0, err
		}
	}
	shTrue, err := s.timeShTrue(21)
	if err != nil {
		return nil, 0, err
	}
	printHeader(stdout)
	var verdicts []verdict
	for i, p := range ps {
		r, err := s.projectResult(p, sources[p.Name], i)
		if err != nil {
			return nil, 0, err
		}
		v := judge(r, s.account, known, trusted)
		printLine(stdout, v)
		verdicts = append(verdicts, v)
	}
	return verdicts, shTrue, nil
}

// projectResult runs p in each mode, the i-th project starting with the
// i-th mode, so that none always runs first, on a cold page cache. Then,
// since a loaded machine fails a test on a deadline now and then, a
// failure that would fail the suite or mislead is run again once.
func (s *suite) projectResult(p project, src string, i int) (result, error) {
	r := result{Project: p.Name, Runs: map[mode]run{}}
	old, _ := filepath.Glob(filepath.Join(s.dir, "logs", string(s.account), p.Name+".*.log"))
	for _, log := range old { // a last run's second tries would mislead
		os.Remove(log)
	}
	var err error
	for k := range modes {
		m := modes[(i+k)%len(modes)]
		if r.Runs[m], err = s.runProject(p, src, m, 1); err != nil {
			return r, fmt.Errorf("%s, %s: %w", p.Name, m, err)
		}
	}
	for again := retries(judge(r, s.account, known, trusted)); len(again) > 0; again = retries(judge(r, s.account, known, trusted)) {
		for _, m := range again {
			if r.Runs[m], err = s.runProject(p, src, m, r.Runs[m].Tries+1); err != nil {
				return r, fmt.Errorf("%s, %s: %w", p.Name, m, err)
			}
		}
	}
	return r, nil
}

func (s *suite) wispVersion() string {
	out, err := exec.Command(s.wisp, "version").Output()
	if err != nil {
		return "wisp (version unknown: " + err.Error() + ")"
	}
	return strings.TrimSpace(firstLine(string(out)))
}

func (s *suite) bwrapVersion() string {
	if s.bwrap == "" {
		return "not installed (its column is -)"
	}
	out, err := exec.Command(s.bwrap, "--version").Output()
	if err != nil {
		return s.bwrap
	}
	return strings.TrimSpace(firstLine(string(out)))
}

// loadAverage is the machine's one-minute load, beside the figures.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	if f := strings.Fields(string(data)); len(f) > 0 {
		return f[0]
	}
	return "unknown"
}
