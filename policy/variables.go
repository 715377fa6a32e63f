package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A variable the line sets can make a low command run something: PAGER=…
// git log runs the pager, LD_PRELOAD=… ls loads a library, HOME=. git status
// reads ./.gitconfig. The names below are the ones wisp knows; each is read
// one of three ways.
type varUse int

const (
	// varCommand: the value is a command line a program runs (a pager, an
	// editor); it is checked as a line of its own.
	varCommand varUse = iota + 1
	// varOptions: the value is options of a program (LESS for less); it is
	// checked as that program's command.
	varOptions
	// varCode: whatever the value, a program may load or run other code.
	varCode
)

type variable struct {
	use     varUse
	program string // for varOptions
	reason  string // for varCode: after "NAME=… "
}

const (
	loadsCode   = "makes programs load other code"
	readsConfig = "makes programs read another configuration, which can name commands they run"
	gitConfig   = "changes git's configuration, which can name commands git runs"
	givesOpts   = "gives a program options, some of which write files or run commands"
	otherDaemon = "sends the commands to another daemon, which may be on another machine"
)

// variables are the names, by exact name.
var variables = map[string]variable{
	"PAGER": {use: varCommand}, "MANPAGER": {use: varCommand}, "GIT_PAGER": {use: varCommand},
	"SYSTEMD_PAGER": {use: varCommand}, "ACK_PAGER": {use: varCommand}, "ACK_PAGER_COLOR": {use: varCommand},
	"LESSOPEN": {use: varCommand}, "LESSCLOSE": {use: varCommand}, "LESSEDIT": {use: varCommand},
	"EDITOR": {use: varCommand}, "VISUAL": {use: varCommand}, "FCEDIT": {use: varCommand},
	"GIT_EDITOR": {use: varCommand}, "GIT_SEQUENCE_EDITOR": {use: varCommand}, "BROWSER": {use: varCommand},
	"GIT_EXTERNAL_DIFF": {use: varCommand}, "GIT_SSH": {use: varCommand}, "GIT_SSH_COMMAND": {use: varCommand},
	"GIT_PROXY_COMMAND": {use: varCommand}, "GIT_ASKPASS": {use: varCommand}, "SSH_ASKPASS": {use: varCommand},
	"SUDO_ASKPASS": {use: varCommand},

	"LESS": {use: varOptions, program: "less"}, "SYSTEMD_LESS": {use: varOptions, program: "less"},
	"MORE": {use: varOptions, program: "more"}, "MANOPT": {use: varOptions, program: "man"},

	"PATH":     {use: varCode, reason: "changes which program each name runs"},
	"BASH_ENV": {use: varCode, reason: "names a file that bash runs at start"},
	"ENV":      {use: varCode, reason: "names a file that sh runs at start"},
	"HOME":     {use: varCode, reason: readsConfig}, "XDG_CONFIG_HOME": {use: varCode, reason: readsConfig},
	"GIT_EXEC_PATH": {use: varCode, reason: "makes git run its commands from another folder"},
	"GCONV_PATH":    {use: varCode, reason: loadsCode}, "NODE_OPTIONS": {use: varCode, reason: loadsCode},
	"PYTHONPATH": {use: varCode, reason: loadsCode}, "PYTHONHOME": {use: varCode, reason: loadsCode},
	"PERL5OPT": {use: varCode, reason: loadsCode}, "PERL5LIB": {use: varCode, reason: loadsCode},
	"PERLLIB": {use: varCode, reason: loadsCode}, "RUBYOPT": {use: varCode, reason: loadsCode},
	"RUBYLIB":             {use: varCode, reason: loadsCode},
	"LESSKEY":             {use: varCode, reason: "gives less key bindings, which can set the commands it runs"},
	"LESSKEYIN":           {use: varCode, reason: "gives less key bindings, which can set the commands it runs"},
	"LESSKEY_CONTENT":     {use: varCode, reason: "gives less key bindings, which can set the commands it runs"},
	"RIPGREP_CONFIG_PATH": {use: varCode, reason: givesOpts}, "ACKRC": {use: varCode, reason: givesOpts},
	"ACK_OPTIONS": {use: varCode, reason: givesOpts}, "GOFLAGS": {use: varCode, reason: givesOpts},
	"APT_CONFIG":  {use: varCode, reason: givesOpts},
	"GOTOOLCHAIN": {use: varCode, reason: "makes go download and run another toolchain"},
	"DOCKER_HOST": {use: varCode, reason: otherDaemon}, "CONTAINER_HOST": {use: varCode, reason: otherDaemon},
	"DOCKER_CONFIG": {use: varCode, reason: readsConfig},
}

// variablePrefixes are families of names.
var variablePrefixes = []struct {
	prefix string
	v      variable
}{
	{"LD_", variable{use: varCode, reason: loadsCode}},
	{"DYLD_", variable{use: varCode, reason: loadsCode}},
	{"GIT_CONFIG", variable{use: varCode, reason: gitConfig}},
	{"PIP_", variable{use: varCode, reason: givesOpts}},
	{"NPM_CONFIG_", variable{use: varCode, reason: givesOpts}},
	{"npm_config_", variable{use: varCode, reason: givesOpts}},
	{"HOMEBREW_", variable{use: varCode, reason: givesOpts}},
}

func lookupVariable(name string) (variable, bool) {
	if v, ok := variables[name]; ok {
		return v, true
	}
	for _, p := range variablePrefixes {
		if strings.HasPrefix(name, p.prefix) {
			return p.v, true
		}
	}
	return variable{}, false
}

// riskyVariable reports whether setting name can change what a command runs.
func riskyVariable(name string) bool {
	_, ok := lookupVariable(name)
	return ok
}

// checkAssign looks at an assignment of the shell's (X=v cmd, X=v, export
// X=v, declare X=v), and at a word that declare or export reads as one
// (export "PATH=.").
func (c *checker) checkAssign(as *syntax.Assign, src string) {
	switch {
	case as.Index != nil || as.Array != nil:
	case as.Name != nil && !as.Naked && as.Value != nil:
		if riskyVariable(as.Name.Value) {
			c.checkVariable(as.Name.Value, resolveWord(as.Value, src, &c.values))
		}
	case as.Naked && as.Name == nil && as.Value != nil:
		c.checkDeclWord(resolveWord(as.Value, src, &c.values))
	}
}

// checkDeclWord looks at a word of declare, export, local, … that is no
// plain NAME=value: quoted, or made when the line runs.
func (c *checker) checkDeclWord(w word) {
	if !w.literal {
		c.note(Moderate, w.text+" sets a variable whose name is only known when the line runs")
		return
	}
	if name, value, ok := strings.Cut(w.value, "="); ok && looksLikeAssignment(w.value) && riskyVariable(name) {
		c.checkVariable(name, literalWord(value))
	}
}

// checkLoopVariable: for PATH in .; do ls; done sets PATH for the body.
func (c *checker) checkLoopVariable(name *syntax.Lit) {
	if name != nil && riskyVariable(name.Value) {
		c.note(Moderate, "for "+name.Value+" in … sets "+name.Value+", which changes what the commands after it run")
	}
}

// checkDefaultAssign: ${HOME:=.} sets HOME when it is empty.
func (c *checker) checkDefaultAssign(pe *syntax.ParamExp) {
	if pe.Exp == nil || pe.Param == nil || pe.Exp.Op != syntax.AssignUnset && pe.Exp.Op != syntax.AssignUnsetOrNull {
		return
	}
	if riskyVariable(pe.Param.Value) {
		c.note(Moderate, "${"+pe.Param.Value+":=…} sets "+pe.Param.Value+", which changes what the commands after it run")
	}
}

// checkWrapperAssigns looks at the NAME=value words a wrapper passes on
// (env X=v cmd), before the command in words.
func (c *checker) checkWrapperAssigns(words []word) {
	for _, w := range words {
		if !w.literal || !looksLikeAssignment(w.value) {
			continue
		}
		name, value, _ := strings.Cut(w.value, "=")
		if _, ok := lookupVariable(name); ok {
			c.checkVariable(name, literalWord(value))
		}
	}
}

// checkVariable adds what setting name to value means: the command it
// names, checked as a line; the options it gives, checked as that
// program's; or the reason any value is moderate.
func (c *checker) checkVariable(name string, value word) {
	v, _ := lookupVariable(name)
	if v.use == varCode {
		c.note(Moderate, name+"=… "+v.reason)
		return
	}
	if !value.literal {
		c.note(High, "what "+name+" runs is only known when the line runs")
		return
	}
	cmd := strings.TrimLeft(value.value, "|-") // LESSOPEN='|lesspipe %s'
	if strings.TrimSpace(cmd) == "" {
		return
	}
	if v.use == varOptions {
		cmd = v.program + " " + value.value
	}
	c.enqueue(cmd, name+"=", c.depth)
}
