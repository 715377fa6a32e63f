package agentapp

import (
	"path/filepath"
	"strings"

	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/app"
)

// openCheckpoints opens the project's checkpoint store for a face that
// runs turns. A store that cannot be had is said as a warning and the
// conversation goes on without checkpoints: undo is a help, never a
// reason not to start. Nil when checkpoints are off.
func openCheckpoints(f *app.Factory, s *app.Session, face agent.Face, co Options) *agent.Checkpoints {
	note := func(level, text string) { face.Emit(agent.Event{Type: agent.EventNote, Level: level, Text: text}) }
	userHome, _ := f.UserHome()
	cps, err := agent.OpenCheckpoints(s.Cfg.Checkpoints, s.Home, CheckpointRoots(s.Runner.Dir, s.Cfg.CommandPolicy.Sandbox.WritablePaths, userHome))
	if err != nil {
		note(agent.LevelWarning, "· "+err.Error())
		return nil
	}
	if cps == nil {
		return nil
	}
	cps.Ask, cps.Face = co.CheckpointAsk, checkpointFace(co.Face)
	if r := cps.Store.Recovered(); r != nil {
		note(agent.LevelWarning, "· "+r.String())
	}
	s.Checkpoints = true
	return cps
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
// lets commands write.
func CheckpointRoots(launch string, writable []string, userHome string) []string {
	roots := []string{realPath(launch)}
	for _, p := range writable {
		if rest, ok := strings.CutPrefix(p, "~/"); ok && userHome != "" {
			p = filepath.Join(userHome, rest)
		}
		if !filepath.IsAbs(p) {
			continue
		}
		if real, err := filepath.EvalSymlinks(p); err == nil && !contains(roots, real) {
			roots = append(roots, real)
		}
	}
	return roots
}

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
