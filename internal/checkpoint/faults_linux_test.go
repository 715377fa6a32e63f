package checkpoint

import (
	"fmt"
	"os"
	"os/exec"
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

// xfsDisk mounts a new XFS file system with reflinks (a loop device on an
// image in a temporary folder) for as long as the test runs.
func xfsDisk(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a file system needs root")
	}
	if _, err := exec.LookPath("mkfs.xfs"); err != nil {
		t.Skip("no mkfs.xfs (Debian's xfsprogs) to make a file system that clones")
	}
	img := filepath.Join(t.TempDir(), "xfs.img")
	dir := t.TempDir()
	if err := os.WriteFile(img, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, 512<<20); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mkfs.xfs", "-q", "-m", "reflink=1", img).CombinedOutput(); err != nil {
		t.Fatalf("mkfs.xfs: %v\n%s", err, out)
	}
	if out, err := exec.Command("mount", "-o", "loop", img, dir).CombinedOutput(); err != nil {
		testenv.NeedKernel(t, false, fmt.Sprintf("no loop device to mount XFS on: %v %s", err, out))
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	return dir
}

// diskUsed is the bytes in use on the file system that holds dir.
func diskUsed(t *testing.T, dir string) int64 {
	t.Helper()
	var st unix.Statfs_t
	unix.Sync()
	if err := unix.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	return int64(st.Blocks-st.Bfree) * st.Bsize
}

// Where the store and the project share a file system that clones (XFS,
// btrfs; APFS on a Mac), a first checkpoint costs no data blocks.
func TestACheckpointByClonesCostsNoDataBlocks(t *testing.T) {
	disk := xfsDisk(t)
	p := &project{t: t, dir: filepath.Join(disk, "project"), home: filepath.Join(disk, "home")}
	os.Mkdir(p.dir, 0o755)
	files := map[string]string{}
	for i := range 64 {
		files[fmt.Sprintf("f%02d.bin", i)] = binaryContent(byte(i)) + strings.Repeat(fmt.Sprint(i), 1<<19)
	}
	p.write(files)
	p.open(Options{})
	before := diskUsed(t, disk)
	cp := p.take("before")
	if used := diskUsed(t, disk) - before; used > cp.Roots[0].Bytes/10 {
		t.Errorf("a checkpoint of %d bytes used %d bytes of the disk: it copied, not cloned", cp.Roots[0].Bytes, used)
	}
	os.Remove(p.path("f00.bin"))
	p.restore(cp, RestoreOptions{})
	if data, _ := os.ReadFile(p.path("f00.bin")); string(data) != files["f00.bin"] {
		t.Errorf("f00.bin after the undo holds %d bytes, want %d", len(data), len(files["f00.bin"]))
	}
}
