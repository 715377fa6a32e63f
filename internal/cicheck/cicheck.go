// Package cicheck reads the GitHub workflow (.github/workflows/ci.yml) and
// the Makefile the way CI uses them, so that a test can hold the two
// together: a step that calls `make X` for an X the Makefile has lost
// would fail only once pushed, on a runner no one here can reach.
package cicheck

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Workflow is the part of a workflow file the check reads.
type Workflow struct {
	Jobs map[string]Job `yaml:"jobs"`
}

// Job is one job: where it runs, its environment and its steps.
type Job struct {
	RunsOn string            `yaml:"runs-on"`
	Env    map[string]string `yaml:"env"`
	Steps  []Step            `yaml:"steps"`
}

// Step is one step: a shell script (run) or an action (uses).
type Step struct {
	Name string `yaml:"name"`
	Run  string `yaml:"run"`
	Uses string `yaml:"uses"`
}

// ReadWorkflow parses the workflow at path.
func ReadWorkflow(path string) (Workflow, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Workflow{}, err
	}
	var w Workflow
	if err := yaml.Unmarshal(data, &w); err != nil {
		return Workflow{}, fmt.Errorf("parse %s: %w", path, err)
	}
	return w, nil
}

// MakeTargets lists the targets a step's script asks make for, in order:
// in each command of the script whose program is make (after any VAR=value
// the shell sets for it), each word that is neither a flag nor a
// VAR=value, up to a redirection or a comment.
func MakeTargets(script string) []string {
	var targets []string
	for _, command := range commandSplit.Split(script, -1) {
		words := strings.Fields(command)
		for len(words) > 0 && isAssignment(words[0]) {
			words = words[1:]
		}
		if len(words) == 0 || words[0] != "make" {
			continue
		}
		for _, w := range words[1:] {
			if strings.ContainsAny(w, "<>()#") {
				break
			}
			if !strings.HasPrefix(w, "-") && !isAssignment(w) {
				targets = append(targets, w)
			}
		}
	}
	return targets
}

// commandSplit cuts a script into its simple commands.
var commandSplit = regexp.MustCompile(`\n|;|&&|\|\||\|`)

func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	return ok && name != "" && !strings.HasPrefix(name, "-")
}

var (
	targetLine  = regexp.MustCompile(`^([A-Za-z0-9_./%-]+(?:\s+[A-Za-z0-9_./%-]+)*)\s*:([^=]|$)`)
	includeLine = regexp.MustCompile(`^-?include\s+(.+)$`)
)

// MakefileTargets lists the explicit targets of the Makefile at path and
// of the files it includes (mk/*.mk), as make would read them.
func MakefileTargets(path string) (map[string]bool, error) {
	targets := map[string]bool{}
	return targets, readTargets(path, filepath.Dir(path), targets)
}

func readTargets(path, dir string, targets map[string]bool) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if m := includeLine.FindStringSubmatch(line); m != nil {
			if err := readIncludes(m[1], dir, strings.HasPrefix(line, "-"), targets); err != nil {
				return err
			}
			continue
		}
		if m := targetLine.FindStringSubmatch(line); m != nil && !strings.HasPrefix(line, ".") {
			for _, t := range strings.Fields(m[1]) {
				targets[t] = true
			}
		}
	}
	return sc.Err()
}

// readIncludes reads each file an include line names; -include skips a
// missing one, as make does.
func readIncludes(names, dir string, optional bool, targets map[string]bool) error {
	for _, name := range strings.Fields(names) {
		if err := readTargets(filepath.Join(dir, name), dir, targets); err != nil && !(optional && os.IsNotExist(err)) {
			return err
		}
	}
	return nil
}

// Missing lists, per job and step, each make target a step calls that the
// Makefile does not define, as "job: step: make X".
func Missing(w Workflow, targets map[string]bool) []string {
	var out []string
	for name, job := range w.Jobs {
		for i, step := range job.Steps {
			for _, t := range MakeTargets(step.Run) {
				if !targets[t] {
					out = append(out, fmt.Sprintf("%s: step %d (%s): make %s", name, i+1, step.Name, t))
				}
			}
		}
	}
	return out
}
