package landlock

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/wisp-sh/wisp/sandbox"
)

// The namespace probe starts the helper once more, which costs as much as
// the confined command's own helper: in a repository (.git/hooks inside the
// launch folder) every `wisp run` paid for two. Its answer depends only on
// the machine and on how wisp was started, so it is remembered in a file in
// wisp's home, next to a fingerprint of everything it depends on; when any
// of that changes, the probe runs again. A confined command cannot write
// the file: wisp's home is never writable inside the sandbox.

// CacheProbeIn makes the backend remember its namespace probe's answer in
// file (in wisp's home) across processes. Call it before the first
// Namespace or Check.
func (l *Landlock) CacheProbeIn(file string) { l.probeCache = file }

// probeRecord is the cache file's content.
type probeRecord struct {
	Fingerprint string            `json:"fingerprint"`
	Namespace   sandbox.Namespace `json:"namespace"`
	Why         string            `json:"why,omitempty"`
}

// maxProbeRecord bounds what is read: the record is a few hundred bytes.
const maxProbeRecord = 4096

// cachedProbe returns the remembered answer when its fingerprint is this
// process's; ok is false when there is none, it is stale or it is not a
// record wisp wrote (wrong owner, not a regular file, malformed).
func cachedProbe(file, fingerprint string) (ns sandbox.Namespace, why string, ok bool) {
	f, err := os.OpenFile(file, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", "", false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxProbeRecord {
		return "", "", false
	}
	if st, isUnix := info.Sys().(*syscall.Stat_t); !isUnix || int(st.Uid) != os.Geteuid() {
		return "", "", false
	}
	data, err := io.ReadAll(io.LimitReader(f, maxProbeRecord))
	if err != nil {
		return "", "", false
	}
	var rec probeRecord
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if dec.Decode(&rec) != nil || rec.Fingerprint != fingerprint {
		return "", "", false
	}
	switch rec.Namespace {
	case sandbox.NamespaceMount, sandbox.NamespaceUser:
		return rec.Namespace, "", true
	case sandbox.NamespaceNone:
		return sandbox.NamespaceNone, rec.Why, rec.Why != ""
	}
	return "", "", false
}

// rememberProbe writes the answer atomically, readable only by its owner.
// A failure only means the next process probes again.
func rememberProbe(file, fingerprint string, ns sandbox.Namespace, why string) {
	data, err := json.Marshal(probeRecord{Fingerprint: fingerprint, Namespace: ns, Why: why})
	if err != nil {
		return
	}
	if os.MkdirAll(filepath.Dir(file), 0o700) != nil {
		return
	}
	// A temporary file renamed over the record: a reader sees the old
	// record or the new one, never half of one. Not fsynced: a record lost
	// in a crash only means one more probe.
	tmp, err := os.CreateTemp(filepath.Dir(file), ".sandbox-probe-*")
	if err != nil {
		return
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(append(data, '\n'))
	if cerr := tmp.Close(); err == nil && cerr == nil {
		_ = os.Rename(tmp.Name(), file)
	}
}

// probeFingerprint digests what the probe's answer depends on: this boot,
// the user, the user and mount namespaces wisp runs in, the confinement it
// runs under (seccomp, no_new_privs, capabilities, the LSM label), the
// kernel's switches for unprivileged user namespaces, and the helper
// executable itself. It fails when the boot cannot be told apart, and then
// nothing is remembered.
func probeFingerprint(exe string) (string, error) {
	bootID, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return "", fmt.Errorf("read the boot id: %w", err)
	}
	h := sha256.New()
	field := func(name, value string) { fmt.Fprintf(h, "%s=%q\n", name, value) }
	field("boot", strings.TrimSpace(string(bootID)))
	field("euid", strconv.Itoa(os.Geteuid()))
	field("egid", strconv.Itoa(os.Getegid()))
	for _, ns := range []string{"user", "mnt"} {
		link, _ := os.Readlink("/proc/self/ns/" + ns)
		field("ns/"+ns, link)
	}
	field("status", statusFields("Seccomp", "NoNewPrivs", "CapEff", "CapBnd"))
	for _, knob := range []string{
		"/proc/self/attr/current",
		"/proc/sys/kernel/unprivileged_userns_clone",
		"/proc/sys/user/max_user_namespaces",
		"/proc/sys/user/max_mnt_namespaces",
		"/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
	} {
		value, _ := os.ReadFile(knob)
		field(knob, strings.TrimSpace(string(value)))
	}
	if info, err := os.Stat(exe); err == nil {
		st, _ := info.Sys().(*syscall.Stat_t)
		var ino uint64
		if st != nil {
			ino = st.Ino
		}
		field("exe", fmt.Sprintf("%s %d %d %d", exe, info.Size(), info.ModTime().UnixNano(), ino))
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// statusFields returns the named lines of /proc/self/status.
func statusFields(names ...string) string {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return ""
	}
	defer f.Close()
	var out []string
	s := bufio.NewScanner(f)
	for s.Scan() {
		for _, name := range names {
			if strings.HasPrefix(s.Text(), name+":") {
				out = append(out, strings.Join(strings.Fields(s.Text()), " "))
			}
		}
	}
	return strings.Join(out, "; ")
}
