package refusal

import (
	"os"
	"strings"
)

// SetID: macOS's sandbox refused to start a set-user-ID or set-group-ID
// program (forbidden-exec-sugid): ps, top, and the scripts that call them
// (brew shellenv). No Seatbelt profile allows it, so the person runs the
// line themselves (issue 29 item 5).
const SetID Verdict = "set-id"

// NestedSandbox: a tool started a Seatbelt sandbox of its own, which macOS
// refuses inside another (forbidden-sandbox-reinit): swift build, Xcode's
// script sandboxing, Chrome and what embeds it (issue 29 item 6).
const NestedSandbox Verdict = "nested-sandbox"

// nestedTexts are what a refused nested sandbox prints: sandbox-exec's
// own error (SwiftPM's manifest, swiftc's plugin server, Homebrew) and
// Chromium's helpers.
var nestedTexts = []string{"sandbox_apply: ", "sandbox_apply_container: ", "sandbox initialization failed: ", "sandbox_init"}

// isNested: the line is a sandbox's own refusal to start, with EPERM.
func isNested(line string, e *errnoText) bool {
	if e.name != "Operation not permitted" {
		return false
	}
	for _, t := range nestedTexts {
		if strings.Contains(line, t) {
			return true
		}
	}
	return false
}

// execHead reads "PATH: Operation not permitted", a program that could not
// be started (bash's script line "…: line 18: /bin/ps: …" is read by the
// other shapes). Only a set-ID program named so is taken from it.
func execHead(head string) (string, bool) {
	p, ok := strings.CutSuffix(head, ": ")
	if !ok || !strings.HasPrefix(p, "/") || strings.Contains(p, ": ") {
		return "", false
	}
	return p, true
}

// starters print "NAME: PATH: errno" when PATH could not be started.
var starters = setOf("sh", "bash", "zsh", "dash", "ksh", "env", "xargs", "nohup", "exec", "time", "timeout", "nice")

// startsPrograms: the line is one a program that could not be started
// leaves: a shell's or env's, a script's "NAME: line N: PATH: …", or the
// bare "PATH: …". BSD cp's "cp: /bin/ps: …" is a write, though it reads
// the same.
func startsPrograms(line, head string) bool {
	if isWrite(line) {
		return false
	}
	if _, ok := execHead(head); ok {
		return true
	}
	return starters(firstField(line)) || strings.Contains(head, ": line ")
}

// isSetID reports whether p is a set-user-ID or set-group-ID regular file.
func isSetID(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular() && info.Mode()&(os.ModeSetuid|os.ModeSetgid) != 0
}

// setIDPrograms are the programs among the candidates (made absolute and
// resolved) that carry a set-ID bit. Only Seatbelt refuses to start them;
// under Landlock (no_new_privs) they start without the privilege.
func setIDPrograms(in Input, candidates []string, resolve func(string) string) []string {
	if goos != "darwin" || len(candidates) == 0 {
		return nil
	}
	setID := in.SetID
	if setID == nil {
		setID = isSetID
	}
	var out []string
	for _, raw := range candidates {
		p, ok := absolute(raw, in.Dir, in.Home)
		if !ok {
			continue
		}
		if real := resolve(p); setID(real) && !contains(out, real) {
			out = append(out, real)
		}
	}
	return out
}

// nestedSwitch is the tool's own switch that turns its sandbox off, read
// from the command line and the output; "" when wisp knows none.
func nestedSwitch(command string, output []byte) string {
	words := strings.Fields(command)
	for i, w := range words {
		base := w[strings.LastIndexByte(w, '/')+1:]
		switch {
		case base == "swift" && i+1 < len(words) && !strings.HasPrefix(words[i+1], "-"):
			return "swift " + words[i+1] + " --disable-sandbox"
		case base == "swift" || base == "swiftc":
			return base + " -disable-sandbox"
		case base == "xcodebuild":
			return "xcodebuild … ENABLE_USER_SCRIPT_SANDBOXING=NO"
		}
	}
	text := strings.ToLower(command + "\n" + string(output))
	switch {
	case strings.Contains(text, "invalid manifest") || strings.Contains(text, "package.swift"):
		return "swift build --disable-sandbox"
	case strings.Contains(text, "electron"):
		return "--no-sandbox (or ELECTRON_DISABLE_SANDBOX=1)"
	case strings.Contains(text, "chrom") || strings.Contains(text, "puppeteer") || strings.Contains(text, "playwright"):
		return "--no-sandbox (Puppeteer and Playwright: args: ['--no-sandbox'])"
	}
	return ""
}

// setIDModelLine is the model's line for SetID.
func (r Result) setIDModelLine(offerOutside bool) string {
	line := "sandbox: refused starting " + named(r.Paths) + ": " + setIDWhy(r.Paths) +
		", and macOS's sandbox never starts such a program (forbidden-exec-sugid); no policy rule denied it"
	if offerOutside {
		return line + offer
	}
	return line + "; the person can run the command themselves with !!"
}

// setIDPersonNote is the person's note for SetID.
func (r Result) setIDPersonNote() string {
	return "· the sandbox cannot start " + named(r.Paths) + ": " + setIDWhy(r.Paths) +
		", which macOS's sandbox never allows; type !! before the command to run it as yourself"
}

func setIDWhy(paths []string) string {
	if len(paths) > 1 {
		return "they run with their owner's rights (set-user-ID or set-group-ID)"
	}
	return "it runs with its owner's rights (set-user-ID or set-group-ID)"
}

// nestedModelLine is the model's line for NestedSandbox.
func (r Result) nestedModelLine(offerOutside bool) string {
	line := "sandbox: the command starts a sandbox of its own, and macOS refuses a sandbox inside wisp's (forbidden-sandbox-reinit); no policy rule denied it"
	if r.Switch != "" {
		return line + "; turn the tool's own sandbox off with " + r.Switch + ": wisp's sandbox still confines it"
	}
	return withOffer(line+"; if the tool has a switch that turns its own sandbox off, use it: wisp's sandbox still confines it", offerOutside)
}

// nestedPersonNote is the person's note for NestedSandbox.
func (r Result) nestedPersonNote() string {
	note := "· the command starts a sandbox of its own, which macOS refuses inside wisp's sandbox"
	if r.Switch != "" {
		return note + "; run it with " + r.Switch + " (wisp's sandbox still confines it), or type !! before the command to run it as yourself"
	}
	return note + "; type !! before the command to run it as yourself"
}
