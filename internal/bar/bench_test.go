package bar

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/pending"
)

// fileMany files n requests from this process into a fresh folder.
func fileMany(b *testing.B, n int) (*pending.Channel, string) {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "pending")
	ch := pending.New(dir, pending.WithTimeout(time.Hour))
	for i := range n {
		_, err := ch.File(context.Background(), pending.Request{
			Command: fmt.Sprintf("make target%04d", i), Cwd: "/home/ada/src/wisp", Level: pending.LevelModerate,
			OutsideSandbox: i%2 == 0, Reasons: []string{"asked by the model"}, Face: pending.FaceChat,
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return ch, dir
}

// BenchmarkRescan1000 is what wisp-bar does when the folder changes with
// 1,000 requests waiting: a full rescan through pending (each file opened
// with the reading rules, parsed strictly, its requester checked), the
// menu and the banner plan. The figure: within 100 ms.
func BenchmarkRescan1000(b *testing.B) {
	ch, _ := fileMany(b, 1000)
	defer reportCPU(b)()
	for b.Loop() {
		list, err := ch.List()
		if err != nil || len(list) != 1000 {
			b.Fatalf("listed %d: %v", len(list), err)
		}
		BuildMenu(View{Pending: list, Now: time.Now()})
		planBanners(map[string]shownBanner{}, nil, list, false)
	}
}

// BenchmarkReadFiles1000 is the baseline: only reading the same 1,000
// files' bytes, no checks, no parsing, no menu.
func BenchmarkReadFiles1000(b *testing.B) {
	_, dir := fileMany(b, 1000)
	defer reportCPU(b)()
	for b.Loop() {
		entries, err := os.ReadDir(dir)
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range entries {
			if _, err := os.ReadFile(filepath.Join(dir, e.Name())); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkBuildMenu1000 is the menu alone, from a list of 1,000.
func BenchmarkBuildMenu1000(b *testing.B) {
	ch, _ := fileMany(b, 1000)
	list, err := ch.List()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		BuildMenu(View{Pending: list, Now: time.Now()})
	}
}

// reportCPU adds the CPU time (user and system) per operation, which a
// loaded machine's waiting does not inflate as it does the wall time.
func reportCPU(b *testing.B) func() {
	before := cpuTime()
	return func() {
		b.ReportMetric(float64((cpuTime()-before).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
