package checkpoint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/testenv"
	"golang.org/x/sys/unix"
)

// smallDisk mounts a tmpfs of size bytes at a new folder, for as long as
// the test runs: a real file system that fills up. It needs root; the
// unprivileged run of these tests skips it.
func smallDisk(t *testing.T, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a small file system needs root; the run as root covers this")
	}
	dir := t.TempDir()
	if err := unix.Mount("wisp-test", dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size="+size+",mode=0755"); err != nil {
		testenv.NeedKernel(t, false, "no tmpfs to mount: "+err.Error())
	}
	t.Cleanup(func() { unix.Unmount(dir, unix.MNT_DETACH) })
	return dir
}

// fill writes to a file in dir until the disk is full.
func fill(t *testing.T, dir string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !isNoSpace(err) {
				t.Fatal(err)
			}
			return
		}
	}
}

func TestARestoreOnAFullDiskChangesNothing(t *testing.T) {
	disk := smallDisk(t, "4m")
	home := t.TempDir()
	dir := filepath.Join(disk, "project")
	p := &project{t: t, dir: dir, home: home}
	os.Mkdir(dir, 0o755)
	p.open(Options{})
	p.write(map[string]string{"big.bin": strings.Repeat("b", 1<<20), "a.txt": "a\n"})
	cp := p.take("before")
	p.write(map[string]string{"big.bin": "small now\n", "a.txt": "changed\n", "new.txt": "new\n"})
	fill(t, disk)
	p.refusedRestore(cp, "nothing was restored", "is full")
	os.Remove(filepath.Join(disk, "filler"))
	p.restore(cp, RestoreOptions{})
	if data, _ := os.ReadFile(p.path("big.bin")); len(data) != 1<<20 {
		t.Errorf("big.bin after the restore has %d bytes", len(data))
	}
}

func TestACheckpointOnAFullDiskIsRefused(t *testing.T) {
	home := smallDisk(t, "1m")
	p := &project{t: t, dir: t.TempDir(), home: home}
	p.open(Options{})
	p.write(map[string]string{"big.bin": strings.Repeat("b", 2<<20)})
	_, err := p.store.Take([]string{p.dir}, "before")
	if err == nil || !strings.Contains(err.Error(), "is full") {
		t.Fatalf("Take with a full store = %v, want an error that says the disk is full", err)
	}
	if list, _ := p.store.List(); len(list) != 0 {
		t.Errorf("a checkpoint was recorded: %+v", list[0])
	}
}
