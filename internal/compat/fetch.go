package main

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// fetchAll brings every project's source into the fetch cache, once: a
// project whose folder is complete (it has the marker) is not fetched
// again. It returns each project's source folder.
func (s *suite) fetchAll(ps []project) (map[string]string, error) {
	sources := map[string]string{}
	for _, p := range ps {
		dir := filepath.Join(s.dir, "fetch", "src", p.Name)
		marker := dir + ".complete"
		if _, err := os.Stat(marker); err != nil {
			fmt.Fprintf(s.progress, "compat: fetching %s\n", p.Name)
			if err := os.RemoveAll(dir); err != nil {
				return nil, err
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, err
			}
			if err := p.fetch(s, dir); err != nil {
				return nil, fmt.Errorf("fetching %s: %w", p.Name, err)
			}
			if err := os.WriteFile(marker, nil, 0o644); err != nil {
				return nil, err
			}
		}
		sources[p.Name] = dir
	}
	return sources, nil
}

// goModule copies module@version, as `go mod download` puts it in a module
// cache of the fetch cache's own, into dir.
func (s *suite) goModule(module, version, dir string) error {
	env := []string{"GOMODCACHE=" + filepath.Join(s.dir, "fetch", "gomod"), "GOFLAGS=-modcacherw"}
	out, err := s.output(env, "go", "mod", "download", "-json", module+"@"+version)
	if err != nil {
		return err
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal([]byte(out), &info); err != nil {
		return fmt.Errorf("reading go mod download's answer: %w", err)
	}
	if info.Error != "" || info.Dir == "" {
		return fmt.Errorf("go mod download %s@%s: %s", module, version, info.Error)
	}
	if err := copyTree(info.Dir, dir, nil); err != nil {
		return err
	}
	return userWritable(dir)
}

// npmPackage packs spec from the registry (`npm pack`) and unpacks it into
// dir, as the package's own folder.
func (s *suite) npmPackage(spec, dir string) error {
	packs := filepath.Join(s.dir, "fetch", "npm")
	if err := os.MkdirAll(packs, 0o755); err != nil {
		return err
	}
	out, err := s.output(nil, "npm", "pack", "--silent", "--pack-destination", packs, spec)
	if err != nil {
		return err
	}
	lines := strings.Fields(out)
	if len(lines) == 0 {
		return fmt.Errorf("npm pack %s named no tarball", spec)
	}
	return untarPackage(filepath.Join(packs, lines[len(lines)-1]), dir)
}

// untarPackage unpacks an npm tarball's package/ folder into dir.
func untarPackage(tgz, dir string) error {
	f, err := os.Open(tgz)
	if err != nil {
		return err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: %w", tgz, err)
	}
	tr := tar.NewReader(z)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", tgz, err)
		}
		name, ok := strings.CutPrefix(filepath.Clean(h.Name), "package"+string(filepath.Separator))
		if !ok || !filepath.IsLocal(name) || h.Typeflag != tar.TypeReg {
			continue
		}
		if err := writeFile(filepath.Join(dir, name), tr, 0o644|os.FileMode(h.Mode)&0o111); err != nil {
			return err
		}
	}
}

func writeFile(path string, r io.Reader, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// debianSource fetches name=version's source (`apt-get source`) and unpacks
// it, patches applied (`dpkg-source -x`), into dir.
func (s *suite) debianSource(name, version, dir string) error {
	apt, err := s.privateApt()
	if err != nil {
		return err
	}
	download := filepath.Join(s.dir, "fetch", "deb", name)
	if err := os.MkdirAll(download, 0o755); err != nil {
		return err
	}
	if _, err := s.outputIn(download, nil, "apt-get", append(apt, "source", "--download-only", name+"="+version)...); err != nil {
		// Another release (Ubuntu's, a later Debian) has its own version:
		// take the one its sources offer.
		fmt.Fprintf(s.progress, "compat: %s=%s is not to be had here, so %s's own version: %v\n", name, version, name, lastLines(err.Error(), 1))
		if _, err := s.outputIn(download, nil, "apt-get", append(apt, "source", "--download-only", name)...); err != nil {
			return err
		}
	}
	dsc, err := filepath.Glob(filepath.Join(download, name+"_*.dsc"))
	if err != nil || len(dsc) != 1 {
		return fmt.Errorf("apt-get source %s=%s left %d .dsc files in %s, not one", name, version, len(dsc), download)
	}
	if err := os.Remove(dir); err != nil { // dpkg-source makes it
		return err
	}
	_, err = s.outputIn(download, nil, "dpkg-source", "--no-check", "-x", dsc[0], dir)
	return err
}

// debianFile fetches Debian's binary package pkg (`apt-get download`) and
// copies the file at path inside it to to.
func (s *suite) debianFile(pkg, path, to string) error {
	apt, err := s.privateApt()
	if err != nil {
		return err
	}
	download := filepath.Join(s.dir, "fetch", "deb", pkg)
	if err := os.RemoveAll(download); err != nil {
		return err
	}
	if err := os.MkdirAll(download, 0o755); err != nil {
		return err
	}
	if _, err := s.outputIn(download, nil, "apt-get", append(apt, "download", pkg)...); err != nil {
		return err
	}
	debs, err := filepath.Glob(filepath.Join(download, pkg+"_*.deb"))
	if err != nil || len(debs) != 1 {
		return fmt.Errorf("apt-get download %s left %d .deb files in %s, not one", pkg, len(debs), download)
	}
	unpacked := filepath.Join(download, "unpacked")
	if _, err := s.output(nil, "dpkg-deb", "-x", debs[0], unpacked); err != nil {
		return err
	}
	f, err := os.Open(filepath.Join(unpacked, path))
	if err != nil {
		return fmt.Errorf("%s has no %s: %w", pkg, path, err)
	}
	defer f.Close()
	return writeFile(to, f, 0o644)
}

// privateApt returns apt-get's options for an apt of the fetch cache's
// own: this machine's sources with their source packages too (deb-src),
// its own lists and cache, updated once. Nothing of the machine's apt
// changes.
func (s *suite) privateApt() ([]string, error) {
	root := filepath.Join(s.dir, "fetch", "apt")
	parts := filepath.Join(root, "sources")
	opts := []string{"-q",
		"-o", "Dir::Etc::SourceList=/dev/null",
		"-o", "Dir::Etc::SourceParts=" + parts,
		"-o", "Dir::State::Lists=" + filepath.Join(root, "lists"),
		"-o", "Dir::Cache=" + filepath.Join(root, "cache"),
	}
	if os.Geteuid() == 0 {
		// apt's download user, _apt, cannot write the fetch cache.
		opts = append(opts, "-o", "APT::Sandbox::User=root")
	}
	marker := filepath.Join(root, "updated")
	if _, err := os.Stat(marker); err == nil {
		return opts, nil
	}
	for _, d := range []string{parts, filepath.Join(root, "lists", "partial"), filepath.Join(root, "cache", "archives", "partial")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	if err := withSources(parts); err != nil {
		return nil, err
	}
	if _, err := s.output(nil, "apt-get", append(opts, "update")...); err != nil {
		return nil, err
	}
	return opts, os.WriteFile(marker, nil, 0o644)
}

// withSources writes this machine's apt sources into parts, each with
// its source packages as well as its binary ones.
func withSources(parts string) error {
	var deb822, oneLine []string
	for _, pattern := range []string{"/etc/apt/sources.list.d/*.sources", "/etc/apt/sources.list", "/etc/apt/sources.list.d/*.list"} {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			if strings.HasSuffix(f, ".sources") {
				deb822 = append(deb822, withDebSrc822(string(data)))
			} else {
				oneLine = append(oneLine, withDebSrcLines(string(data)))
			}
		}
	}
	if len(deb822)+len(oneLine) == 0 {
		return errors.New("this machine has no apt sources (/etc/apt/sources.list, /etc/apt/sources.list.d) to fetch Debian's packages from")
	}
	if err := os.WriteFile(filepath.Join(parts, "compat.sources"), []byte(strings.Join(deb822, "\n\n")), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(parts, "compat.list"), []byte(strings.Join(oneLine, "\n")), 0o644)
}

// withDebSrc822 gives each stanza of a deb822 .sources file both types.
func withDebSrc822(text string) string {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		key, _, ok := strings.Cut(line, ":")
		if ok && strings.EqualFold(strings.TrimSpace(key), "Types") {
			lines[i] = "Types: deb deb-src"
		}
	}
	return strings.Join(lines, "\n")
}

// withDebSrcLines adds a deb-src line after each deb line of a one-line
// sources.list, unless the file has that deb-src line already.
func withDebSrcLines(text string) string {
	have := map[string]bool{}
	for _, line := range strings.Split(text, "\n") {
		have[strings.TrimSpace(line)] = true
	}
	var out []string
	for _, line := range strings.Split(text, "\n") {
		out = append(out, line)
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "deb ")
		if src := "deb-src " + rest; ok && !have[src] {
			out = append(out, src)
		}
	}
	return strings.Join(out, "\n")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
