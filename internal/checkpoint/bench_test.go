package checkpoint

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// The benchmarks measure a checkpoint and a restore on a generated
// project, each beside a baseline measured in the same run on the same
// tree (the machine is shared: read the ratios, not the times):
//
//   - walk-stat: a plain walk that stats every entry, the least a
//     checkpoint that trusts stats can do;
//   - git: the shadow-repository design (a GIT_DIR in wisp's home, the
//     project as its work tree): `git add -A` then `git write-tree`, and
//     for a restore also `git read-tree --reset -u`.
//
//	go test -run '^$' -bench . -benchtime 20x ./checkpoint
//	WISP_BENCH_LARGE=1 go test -run '^$' -bench Large -benchtime 3x -timeout 30m ./checkpoint

// benchProject is a generated project shared by the benchmarks of one
// size, made once per run.
type benchProject struct {
	once sync.Once
	dir  string // the project
	base string // holds it, and the stores
	err  error
}

var (
	project20k benchProject
	benchDirs  []string // removed when the test binary ends
	benchMu    sync.Mutex
)

// gen makes a project of dirs × subdirs × files text files of 1 to 6 kB,
// with a .gitignore, a git repository and ignored build output, as a
// person's checkout might be.
func (bp *benchProject) gen(b *testing.B, dirs, subdirs, files int, content func(r *rand.Rand, i int) []byte) string {
	b.Helper()
	bp.once.Do(func() {
		bp.base, bp.err = os.MkdirTemp("", "wisp-checkpoint-bench-")
		if bp.err != nil {
			return
		}
		benchMu.Lock()
		benchDirs = append(benchDirs, bp.base)
		benchMu.Unlock()
		bp.dir = filepath.Join(bp.base, "project")
		r := rand.New(rand.NewChaCha8([32]byte{1}))
		n := 0
		for d := range dirs {
			for s := range subdirs {
				dir := filepath.Join(bp.dir, fmt.Sprintf("pkg%02d", d), fmt.Sprintf("sub%02d", s))
				if bp.err = os.MkdirAll(dir, 0o755); bp.err != nil {
					return
				}
				for f := range files {
					if bp.err = os.WriteFile(filepath.Join(dir, fmt.Sprintf("file%03d.go", f)), content(r, n), 0o644); bp.err != nil {
						return
					}
					n++
				}
			}
		}
		bp.err = os.WriteFile(filepath.Join(bp.dir, ".gitignore"), []byte("/build/\n*.o\nnode_modules/\n"), 0o644)
		if bp.err == nil {
			bp.err = os.MkdirAll(filepath.Join(bp.dir, "build"), 0o755)
		}
		if bp.err == nil {
			bp.err = os.WriteFile(filepath.Join(bp.dir, "build", "out.bin"), make([]byte, 1<<20), 0o644)
		}
		if bp.err == nil {
			bp.err = exec.Command("git", "-C", bp.dir, "init", "-q").Run()
		}
	})
	if bp.err != nil {
		b.Fatal(bp.err)
	}
	return bp.dir
}

// sourceFile is a text file of 1 to 6 kB.
func sourceFile(r *rand.Rand, i int) []byte {
	var sb strings.Builder
	fmt.Fprintf(&sb, "package p%d\n\n", i)
	for size := 1000 + r.IntN(5000); sb.Len() < size; {
		fmt.Fprintf(&sb, "var v%d = %d // %x\n", sb.Len(), r.Int64(), r.Uint64())
	}
	return []byte(sb.String())
}

func removeBenchDirs() {
	for _, d := range benchDirs {
		os.RemoveAll(d)
	}
}

// touches makes each touch's content new, across benchmarks too.
var touches atomic.Int64

// touch rewrites n of the project's files, chosen by round, as a turn.
func touch(b *testing.B, dir string, n, round int) {
	b.Helper()
	var files []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if d != nil && d.IsDir() && (d.Name() == ".git" || d.Name() == "build") {
			return filepath.SkipDir
		}
		if d != nil && d.Type().IsRegular() && strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return nil
	})
	for i := range n {
		path := files[(i*7919+round*104729)%len(files)]
		content := fmt.Sprintf("package changed\n// touch %d, round %d, file %d\n", touches.Add(1), round, i)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCheckpoint20kFiles10Changed(b *testing.B) {
	dir := project20k.gen(b, 20, 10, 100, sourceFile)
	aTurn := func(i int) { touch(b, dir, 10, i) }
	b.Run("walk-stat", walkStat(dir))
	b.Run("git", func(b *testing.B) {
		g := newShadowGit(b, dir)
		g.snapshot(b)
		before := dirSize(g.gitDir)
		eachOp(b, aTurn, func() { g.snapshot(b) })
		b.ReportMetric(float64(dirSize(g.gitDir)-before)/float64(b.N), "store-B/op")
	})
	b.Run("take", func(b *testing.B) { benchTake(b, dir, 0, aTurn, Options{}) })
	b.Run("take-2-walks", func(b *testing.B) { benchTake(b, dir, 2, aTurn, Options{}) })
	// A store that watches walks again only the folders the turn changed.
	b.Run("take-watched", func(b *testing.B) { benchTake(b, dir, 0, aTurn, Options{Watch: true}) })
}

// benchTake measures checkpoints of dir, each after aTurn, walking walks
// folders at once.
func benchTake(b *testing.B, dir string, walks int, aTurn func(int), opts Options) {
	s := benchStoreWith(b, dir, opts)
	s.walks = walks
	take(b, s, dir)
	before := dirSize(s.dir)
	eachOp(b, aTurn, func() { take(b, s, dir) })
	b.ReportMetric(float64(dirSize(s.dir)-before)/float64(b.N), "store-B/op")
}

func BenchmarkRestore100Changed(b *testing.B) {
	dir := project20k.gen(b, 20, 10, 100, sourceFile)
	aTurn := func(i int) { touch(b, dir, 100, i) }
	b.Run("walk-stat", walkStat(dir))
	b.Run("git", func(b *testing.B) {
		g := newShadowGit(b, dir)
		tree := g.snapshot(b)
		eachOp(b, aTurn, func() {
			g.snapshot(b) // the redo, as Restore takes one
			g.run(b, "read-tree", "--reset", "-u", tree)
		})
	})
	b.Run("restore", func(b *testing.B) {
		s := benchStore(b, dir)
		cp := take(b, s, dir)
		eachOp(b, aTurn, func() {
			res, err := s.Restore(cp, RestoreOptions{})
			if err != nil {
				b.Fatal(err)
			}
			if len(res.Changes) != 100 {
				b.Fatalf("the restore undid %d changes, want 100", len(res.Changes))
			}
		})
	})
}

// eachOp times op b.N times, each after prepare (not timed, when set),
// and reports the processor time per op too.
func eachOp(b *testing.B, prepare func(i int), op func()) {
	b.Helper()
	b.ResetTimer()
	cpu := startCPU()
	for i := range b.N {
		if prepare != nil {
			b.StopTimer()
			cpu.pause()
			prepare(i)
			cpu.resume()
			b.StartTimer()
		}
		op()
	}
	b.StopTimer()
	cpu.report(b)
}

func benchStore(b *testing.B, dir string) *Store { return benchStoreWith(b, dir, Options{}) }

func benchStoreWith(b *testing.B, dir string, opts Options) *Store {
	b.Helper()
	home, err := os.MkdirTemp(filepath.Dir(dir), "home-")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(home) })
	opts.MaxRootBytes = -1
	s, err := Open(Dir(home, dir), opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

func take(b *testing.B, s *Store, dir string) *Checkpoint {
	b.Helper()
	cp, err := s.Take([]string{dir}, "bench")
	if err != nil {
		b.Fatal(err)
	}
	return cp
}

// walkStat is the baseline: every entry stat'd, .git skipped.
func walkStat(dir string) func(*testing.B) {
	return func(b *testing.B) { eachOp(b, nil, func() { statAll(b, dir) }) }
}

func statAll(b *testing.B, dir string) {
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == ".git" {
			return filepath.SkipDir
		}
		_, err = os.Lstat(path)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
}

// shadowGit is a repository outside the project whose work tree it is.
type shadowGit struct {
	gitDir, work string
}

func newShadowGit(b *testing.B, work string) *shadowGit {
	b.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("no git")
	}
	gitDir, err := os.MkdirTemp(filepath.Dir(work), "shadow-")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(gitDir) })
	g := &shadowGit{gitDir: gitDir, work: work}
	g.run(b, "init", "-q")
	return g
}

func (g *shadowGit) run(b *testing.B, args ...string) string {
	b.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = g.work
	cmd.Env = append(os.Environ(), "GIT_DIR="+g.gitDir, "GIT_WORK_TREE="+g.work, "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("git %v: %v", args, err)
	}
	return strings.TrimSpace(string(out))
}

// snapshot records the work tree, as the shadow-git design does.
func (g *shadowGit) snapshot(b *testing.B) string {
	g.run(b, "add", "-A")
	return g.run(b, "write-tree")
}

// dirSize is the bytes of the files under dir.
func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// cpuClock measures the processor time (user and system, this process's
// and its children's) of a benchmark's timed part: on a machine others
// load, it varies less than the time on the wall.
type cpuClock struct {
	used  time.Duration
	start time.Duration
}

func cpuNow() time.Duration {
	var self, kids syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	d := func(tv syscall.Timeval) time.Duration { return time.Duration(tv.Nano()) }
	return d(self.Utime) + d(self.Stime) + d(kids.Utime) + d(kids.Stime)
}

func startCPU() *cpuClock { return &cpuClock{start: cpuNow()} }

func (c *cpuClock) pause()  { c.used += cpuNow() - c.start }
func (c *cpuClock) resume() { c.start = cpuNow() }

func (c *cpuClock) report(b *testing.B) {
	c.pause()
	b.ReportMetric(float64(c.used)/1e6/float64(b.N), "cpu-ms/op")
}
