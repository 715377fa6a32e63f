package gitguard

import (
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
)

// The baseline as the record in wisp's home holds it, for another wisp.

type savedState struct {
	Roots   []string     `json:"roots"`
	Home    string       `json:"home,omitempty"`
	Env     savedEnv     `json:"env"`
	Known   []string     `json:"known,omitempty"`
	Watches []savedWatch `json:"watches"`
}

type savedEnv struct {
	Home     string   `json:"home,omitempty"`
	Configs  []string `json:"configs,omitempty"`
	Template string   `json:"template,omitempty"`
}

type savedWatch struct {
	Path    string               `json:"path"`
	Kind    watchKind            `json:"kind"`
	Top     string               `json:"top,omitempty"`
	GitDir  string               `json:"gitdir,omitempty"`
	Before  savedFile            `json:"before"`
	Entries map[string]savedFile `json:"entries,omitempty"`
	Subdirs []string             `json:"subdirs,omitempty"`
}

type savedFile struct {
	Exists bool        `json:"exists,omitempty"`
	Mode   fs.FileMode `json:"mode,omitempty"`
	Target string      `json:"target,omitempty"`
	Size   int64       `json:"size,omitempty"`
	How    readHow     `json:"how,omitempty"`
	Data   []byte      `json:"data,omitempty"`
	Sum    []byte      `json:"sum,omitempty"`
}

func encodeBaseline(g *gitState) ([]byte, error) {
	out := savedState{Roots: g.roots, Home: g.home, Known: slices.Sorted(maps.Keys(g.known)),
		Env: savedEnv{Home: g.env.home, Configs: g.env.configs, Template: g.env.template}}
	for _, p := range slices.Sorted(maps.Keys(g.watches)) {
		w := g.watches[p]
		if w.kind == kindDotGit && !w.before.exists && w.gitdir == "" && filepath.Join(w.top, ".git") == w.path {
			// Most watches, with many folders: where no .git was. A top
			// with no watch gets the same check in the put-back (a .git
			// there now is a new repository), so they are left out.
			continue
		}
		sw := savedWatch{Path: w.path, Kind: w.kind, Top: w.top, GitDir: w.gitdir, Before: saveFile(w.before),
			Subdirs: slices.Sorted(maps.Keys(w.subdirs))}
		if w.entries != nil {
			sw.Entries = make(map[string]savedFile, len(w.entries))
			for name, st := range w.entries {
				sw.Entries[name] = saveFile(st)
			}
		}
		out.Watches = append(out.Watches, sw)
	}
	return json.Marshal(out)
}

func saveFile(st fileState) savedFile {
	f := savedFile{Exists: st.exists, Mode: st.mode, Target: st.target, Size: st.size, How: st.body.how, Data: st.body.data}
	if st.body.how == digested {
		f.Sum = st.body.sum[:]
	}
	return f
}

var errNoBaseline = errors.New("it holds no baseline")

func decodeBaseline(data []byte) (*gitState, error) {
	if len(data) == 0 {
		return nil, errNoBaseline
	}
	var in savedState
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, err
	}
	g := &gitState{roots: in.Roots, home: in.Home, env: Env{home: in.Env.Home, configs: in.Env.Configs, template: in.Env.Template},
		watches: make(map[string]*gitWatch, len(in.Watches)), known: map[string]bool{}}
	for _, k := range in.Known {
		g.known[k] = true
	}
	for _, sw := range in.Watches {
		w := &gitWatch{path: sw.Path, kind: sw.Kind, top: sw.Top, gitdir: sw.GitDir, before: loadFile(sw.Before)}
		if sw.Entries != nil {
			w.entries = make(map[string]fileState, len(sw.Entries))
			for name, f := range sw.Entries {
				w.entries[name] = loadFile(f)
			}
		}
		if sw.Kind == kindGitDirs {
			w.subdirs = map[string]bool{}
			for _, d := range sw.Subdirs {
				w.subdirs[d] = true
			}
		}
		g.watches[sw.Path] = w
	}
	return g, nil
}

func loadFile(f savedFile) fileState {
	st := fileState{exists: f.Exists, mode: f.Mode, target: f.Target, size: f.Size, body: body{how: f.How, data: f.Data}}
	if f.How == digested && copy(st.body.sum[:], f.Sum) != len(st.body.sum) {
		st.body.how = notRead // never the same as anything
	}
	return st
}
