package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
)

func TestWithDebSrc822(t *testing.T) {
	in := "Types: deb\nURIs: http://mirror.example/debian\nSuites: bookworm bookworm-updates\nComponents: main\n\n" +
		"types: deb-src\nURIs: http://mirror.example/debian-security\nSuites: bookworm-security\n"
	want := "Types: deb deb-src\nURIs: http://mirror.example/debian\nSuites: bookworm bookworm-updates\nComponents: main\n\n" +
		"Types: deb deb-src\nURIs: http://mirror.example/debian-security\nSuites: bookworm-security\n"
	if got := withDebSrc822(in); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestWithDebSrcLines(t *testing.T) {
	in := "# a comment\ndeb http://mirror.example/debian bookworm main\n" +
		"deb [signed-by=/k.gpg] http://mirror.example/sec bookworm-security main\n" +
		"deb-src [signed-by=/k.gpg] http://mirror.example/sec bookworm-security main\n"
	want := "# a comment\ndeb http://mirror.example/debian bookworm main\n" +
		"deb-src http://mirror.example/debian bookworm main\n" +
		"deb [signed-by=/k.gpg] http://mirror.example/sec bookworm-security main\n" +
		"deb-src [signed-by=/k.gpg] http://mirror.example/sec bookworm-security main\n"
	if got := withDebSrcLines(in); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestUntarPackage unpacks an npm tarball's package/ folder, keeps the
// execute bits, and writes nothing outside the folder it is given.
func TestUntarPackage(t *testing.T) {
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	tw := tar.NewWriter(z)
	for _, f := range []struct {
		name string
		mode int64
	}{{"package/package.json", 0o644}, {"package/bin/cli.js", 0o755}, {"package/../escape", 0o644}, {"other/file", 0o644}} {
		body := []byte("x")
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(body)
	}
	tw.Close()
	z.Close()
	dir := t.TempDir()
	tgz := filepath.Join(dir, "p.tgz")
	if err := os.WriteFile(tgz, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if err := untarPackage(tgz, out); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(filepath.Join(out, "bin", "cli.js")); err != nil || info.Mode().Perm()&0o100 == 0 {
		t.Errorf("bin/cli.js: %v, %v: want it unpacked and executable", info, err)
	}
	if _, err := os.Stat(filepath.Join(out, "package.json")); err != nil {
		t.Error(err)
	}
	for _, stray := range []string{filepath.Join(dir, "escape"), filepath.Join(out, "file"), filepath.Join(out, "other")} {
		if _, err := os.Lstat(stray); err == nil {
			t.Errorf("%s was written", stray)
		}
	}
}
