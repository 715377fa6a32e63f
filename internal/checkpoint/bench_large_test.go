package checkpoint

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

var project1G benchProject

// randomFile is 1 MiB that does not compress, as media or model files.
func randomFile(r *rand.Rand, _ int) []byte {
	b := make([]byte, 1<<20)
	for i := 0; i < len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], r.Uint64())
	}
	return b
}

// BenchmarkLarge1GB runs on a generated project of 1 GiB (1,024 files of
// 1 MiB) only when WISP_BENCH_LARGE=1; the project is removed after.
func BenchmarkLarge1GB(b *testing.B) {
	if os.Getenv("WISP_BENCH_LARGE") != "1" {
		b.Skip("set WISP_BENCH_LARGE=1 to make and measure a 1 GiB project")
	}
	dir := project1G.gen(b, 16, 4, 16, randomFile)
	b.Run("copy", func(b *testing.B) {
		to := filepath.Join(filepath.Dir(dir), "copy")
		defer os.RemoveAll(to)
		eachOp(b, func(int) { os.RemoveAll(to) }, func() { copyTree(b, dir, to) })
	})
	b.Run("first-take", func(b *testing.B) {
		var s *Store
		eachOp(b, func(int) {
			if s != nil {
				s.Close()
				os.RemoveAll(s.dir)
			}
			s = benchStore(b, dir)
		}, func() { take(b, s, dir) })
		b.ReportMetric(float64(dirSize(s.dir))/1e6, "store-MB")
	})
	b.Run("walk-stat", walkStat(dir))
	aTurn := func(i int) { touch1M(b, dir, 10, i) }
	b.Run("take-10-changed", func(b *testing.B) { benchTake(b, dir, 0, aTurn, Options{}) })
	b.Run("restore-10-changed", func(b *testing.B) {
		s := benchStore(b, dir)
		cp := take(b, s, dir)
		eachOp(b, aTurn, func() {
			if _, err := s.Restore(cp, RestoreOptions{}); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// touch1M rewrites n of the large project's files whole.
func touch1M(b *testing.B, dir string, n, round int) {
	r := rand.New(rand.NewChaCha8([32]byte{byte(round), byte(touches.Add(1))}))
	for i := range n {
		path := filepath.Join(dir, fmt.Sprintf("pkg%02d", i%16), "sub00", fmt.Sprintf("file%03d.go", (i+round)%16))
		if err := os.WriteFile(path, randomFile(r, i), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// copyTree copies the regular files under from to to: the least a first
// checkpoint that keeps every byte can cost.
func copyTree(b *testing.B, from, to string) {
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.Name() == ".git" && d.IsDir() {
			return cmp.Or(err, filepath.SkipDir)
		}
		rel, _ := filepath.Rel(from, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		src, err := os.Open(path)
		if err != nil {
			return err
		}
		defer src.Close()
		dst, err := os.Create(filepath.Join(to, rel))
		if err != nil {
			return err
		}
		_, err = io.Copy(dst, src)
		return cmp.Or(err, dst.Close())
	})
	if err != nil {
		b.Fatal(err)
	}
}
