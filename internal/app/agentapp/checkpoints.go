package agentapp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/app"
	"github.com/wisp-sh/wisp/internal/tools"
	"github.com/wisp-sh/wisp/sandbox"
)

// openCheckpoints opens the project's checkpoint store for a face that
// runs turns. A store that cannot be had is said as a warning and the
// conversation goes on without checkpoints: undo is a help, never a
// reason not to start. Nil when checkpoints are off, or when the launch
// folder is no project (a home folder, a temporary folder, /): a walk of
// it before each turn would hold up every turn, and say nothing useful.
func openCheckpoints(f *app.Factory, s *app.Session, face agent.Face, co Options) *agent.Checkpoints {
	note := func(level, text string) { face.Emit(agent.Event{Type: agent.EventNote, Level: level, Text: text}) }
	if !s.Cfg.Checkpoints.Enabled {
		return nil
	}
	userHome, _ := f.UserHome()
	roots, err := CheckpointRoots(s.Runner.Dir, s.Cfg.CommandPolicy.Sandbox.WritablePaths, userHome, s.Home.Dir)
	if err != nil {
		note(agent.LevelWarning, "· "+err.Error())
		if roots == nil {
			return nil
		}
	}
	cps, err := agent.OpenCheckpoints(s.Cfg.Checkpoints, s.Home, roots)
	if err != nil {
		note(agent.LevelWarning, "· "+err.Error())
		return nil
	}
	cps.Ask, cps.Face = co.CheckpointAsk, checkpointFace(co.Face)
	if r := cps.Store.Recovered(); r != nil {
		note(agent.LevelWarning, "· "+r.String())
	}
	s.Checkpoints = true
	return cps
}

// recordGrants makes each folder granted with add_directory a checkpoint
// root from the next checkpoint on (one that is no project is left out,
// and said).
func recordGrants(f *app.Factory, s *app.Session, tb *tools.Toolbox, cps *agent.Checkpoints, face agent.Face) {
	if cps == nil || tb.Spec == nil {
		return
	}
	userHome, _ := f.UserHome()
	spec := tb.Spec
	tb.Spec = func(granted []string) (sandbox.Spec, error) {
		sp, err := spec(granted)
		if err != nil || len(granted) == 0 {
			return sp, err
		}
		dir := realPath(granted[len(granted)-1])
		if why := notAProject(dir, userHome, s.Home.Dir); why != "" {
			face.Emit(agent.Event{Type: agent.EventNote, Level: agent.LevelWarning,
				Text: "· checkpoints leave out " + dir + " (" + why + "): /undo cannot take back what changes there"})
			return sp, nil
		}
		cps.AddRoot(dir)
		return sp, nil
	}
}

// checkpointFace is the face named in checkpoint.restored: chat --json is
// the chat.
func checkpointFace(face string) string {
	name, _, _ := strings.Cut(face, " ")
	return name
}

// CheckpointRoots are the folders a checkpoint records: the launch folder
// (its real path, which names the store) first, then the writablePaths
// that exist; never the caches and temporary folders the sandbox also
// lets commands write. A folder that is no project (/, the person's home
// or a folder above it, a temporary folder's top, wisp's home) is left
// out and said in the error; when that is the launch folder, roots is nil
// and checkpoints are off.
func CheckpointRoots(launch string, writable []string, userHome, wispHome string) ([]string, error) {
	launch = realPath(launch)
	if why := notAProject(launch, userHome, wispHome); why != "" {
		return nil, fmt.Errorf("no checkpoints here, so /undo cannot take a turn back: %s is %s, not a project folder, and a checkpoint of it before each turn would walk all of it; start wisp in a project's folder to have them", launch, why)
	}
	roots := []string{launch}
	var left []string
	for _, p := range writable {
		if rest, ok := strings.CutPrefix(p, "~/"); ok && userHome != "" {
			p = filepath.Join(userHome, rest)
		}
		if !filepath.IsAbs(p) {
			continue
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil || contains(roots, real) {
			continue
		}
		if why := notAProject(real, userHome, wispHome); why != "" {
			left = append(left, real+" ("+why+")")
			continue
		}
		roots = append(roots, real)
	}
	if len(left) > 0 {
		return roots, fmt.Errorf("checkpoints leave out %s: /undo cannot take back what changes there", strings.Join(left, ", "))
	}
	return roots, nil
}

// notAProject says what dir is when it is a folder no checkpoint should
// walk: one that holds far more than a project, or wisp's own files.
func notAProject(dir, userHome, wispHome string) string {
	for _, t := range []string{os.TempDir(), "/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp"} {
		if dir == realPath(t) {
			return "the temporary folder everyone shares"
		}
	}
	home := realPath(userHome)
	switch {
	case dir == "/":
		return "the root of the disk"
	case userHome != "" && dir == home:
		return "your home folder"
	case userHome != "" && strings.HasPrefix(home, dir+"/"):
		return "a folder that holds your home folder"
	case wispHome != "" && within(dir, realPath(wispHome)):
		return "wisp's own home"
	}
	return ""
}

func within(path, dir string) bool { return path == dir || strings.HasPrefix(path, dir+"/") }

func realPath(p string) string {
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	return filepath.Clean(p)
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// closeCheckpoints writes what the store's index learnt and releases it.
func closeCheckpoints(c *agent.Checkpoints) {
	if c != nil {
		c.Store.Close()
	}
}
