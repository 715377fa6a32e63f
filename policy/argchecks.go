package policy

import "strings"

// argCheck reads what a table row cannot say about a low command's
// arguments (a sed script, less's initial commands) and returns the level
// they raise it to, with the reason; Low when they do not.
type argCheck func(args []word) (Level, string)

// argChecks are the programs rated low whose arguments can still write a
// file or run a command in a way risk.txt's rows cannot spell.
var argChecks map[string]argCheck

func init() {
	argChecks = map[string]argCheck{
		"sed":  sedArgs,
		"less": pagerCommands("less"),
		"more": pagerCommands("more"),
		"brew": brewFormulaFile,
		"read": setsRiskyVariable("read"), "getopts": setsRiskyVariable("getopts"),
		"printf":  printfVariable,
		"declare": nameref("declare"), "typeset": nameref("typeset"), "local": nameref("local"),
	}
}

// pagerCommands: less +cmd (and more, which is less on macOS) runs cmd as
// keys typed at start, and ! | s v among them run a shell command or write
// a file; so does a -p pattern with a newline in it. Only a line number, a
// percentage, G, F and the like, or a search, are read as harmless.
func pagerCommands(program string) argCheck {
	reason := program + " +cmd runs pager commands at start, which can run a shell command or write a file"
	return func(args []word) (Level, string) {
		for _, a := range args {
			v := argText(a)
			if v == "--" {
				break
			}
			if strings.HasPrefix(v, "+") && !harmlessPagerCommand(strings.TrimLeft(v, "+")) || !a.literal && strings.HasPrefix(v, "-") || strings.ContainsAny(v, "\n\r") {
				return Moderate, reason
			}
		}
		return Low, ""
	}
}

func harmlessPagerCommand(cmd string) bool {
	if cmd == "" {
		return true
	}
	if cmd[0] == '/' || cmd[0] == '?' {
		return !strings.ContainsAny(cmd, "\n\r")
	}
	i := 0
	for i < len(cmd) && '0' <= cmd[i] && cmd[i] <= '9' {
		i++
	}
	return i == len(cmd) || i == len(cmd)-1 && strings.IndexByte("GgFfpPjkN%", cmd[i]) >= 0
}

// brewFormulaFile: brew info ./x.rb (deps, uses, list) loads the formula
// file, which is Ruby code, and runs it.
func brewFormulaFile(args []word) (Level, string) {
	for _, a := range args {
		if v := argText(a); !strings.HasPrefix(v, "-") && (strings.Contains(v, "/") || strings.HasSuffix(v, ".rb")) {
			return Moderate, "brew loads the formula file " + v + ", which is Ruby code it runs"
		}
	}
	return Low, ""
}

// setsRiskyVariable: read PATH and getopts x LD_PRELOAD set a variable that
// changes what later commands run.
func setsRiskyVariable(program string) argCheck {
	return func(args []word) (Level, string) {
		for _, a := range args {
			if v := argText(a); riskyVariable(v) || !a.literal {
				return Moderate, program + " sets " + v + ", which changes what later commands run"
			}
		}
		return Low, ""
	}
}

// printfVariable: printf -v NAME sets a variable.
func printfVariable(args []word) (Level, string) {
	for i, a := range args {
		v := argText(a)
		name, ok := strings.CutPrefix(v, "-v")
		if !ok {
			continue
		}
		if name == "" && i+1 < len(args) {
			name = argText(args[i+1])
		}
		if riskyVariable(name) || strings.ContainsAny(name, "$`\"'") {
			return Moderate, "printf -v sets " + name + ", which changes what later commands run"
		}
	}
	return Low, ""
}

// nameref: declare -n makes a name stand for another variable, so that an
// assignment to a harmless name can set PATH.
func nameref(program string) argCheck {
	return func(args []word) (Level, string) {
		for _, a := range args {
			if v := argText(a); len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.IndexByte(v, 'n') > 0 {
				return Moderate, program + " -n makes one variable name stand for another, which can be one that changes what commands run"
			}
		}
		return Low, ""
	}
}
