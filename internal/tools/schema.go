package tools

// Definition is one tool as a model or an MCP client sees it.
type Definition struct {
	Name        string
	Description string
	Parameters  map[string]any // JSON schema of the arguments
}

// Guidance of decisions D12 and D14, the product's wording.
const (
	outsideSandboxGuidance = "Set true only for a command the sandbox refuses, such as brew upgrade or cargo install; " +
		"the person must approve it. Work that keeps writing in one folder (a repository, a worktree, a build " +
		"directory) is add_directory once; outsideSandbox is for one-off needs: installers, container tools, setuid programs."
	runCommandDescription = "Run a shell command line (/bin/sh -c) in the project folder, under the operator's " +
		"command lists and a kernel sandbox that lets it write only under the writable roots. The result is the " +
		"output (head and tail when long), the exit status, and at most one line starting sandbox: that says what " +
		"the sandbox refused. A denial comes back as the result; read it and adapt."
	addDirectoryDescription = "Ask the person to add a folder to the writable roots for this session. Use it when " +
		"the work is in a folder outside the writable roots, whether the person named it or the task led there: " +
		"it grants the folder the work is in (widened to the repository root above it). Better than asking to run " +
		"command after command outside the sandbox."
	inspectDescription = "Read what wisp knows: what=config (the configuration as you may see it), what=limits " +
		"(where commands may write, time and output limits, what outsideSandbox does here), or what=output with " +
		"id (more of a stored command output, from offset)."
)

// RunCommand is run_command's definition.
func RunCommand() Definition {
	return Definition{Name: "run_command", Description: runCommandDescription, Parameters: object(map[string]any{
		"command":        prop("string", "The command line to run."),
		"outsideSandbox": prop("boolean", outsideSandboxGuidance),
		"timeoutSeconds": prop("integer", "Time limit for this command in seconds; the default is the configured limit."),
	}, "command")}
}

// AddDirectory is add_directory's definition.
func AddDirectory() Definition {
	return Definition{Name: "add_directory", Description: addDirectoryDescription, Parameters: object(map[string]any{
		"path":   prop("string", "The folder the work is in (absolute, or relative to the project)."),
		"reason": prop("string", "Why the work needs to write there, for the person."),
	}, "path", "reason")}
}

// Inspect is inspect's definition.
func Inspect() Definition {
	what := prop("string", "config, limits, or output")
	what["enum"] = []string{"config", "limits", "output"}
	return Definition{Name: "inspect", Description: inspectDescription, Parameters: object(map[string]any{
		"what":   what,
		"id":     prop("string", "With what=output: the output's id, from the result's marker."),
		"offset": prop("integer", "With what=output: where to start reading, in bytes."),
	}, "what")}
}

func object(props map[string]any, required ...string) map[string]any {
	return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
}

func prop(typ, desc string) map[string]any {
	return map[string]any{"type": typ, "description": desc}
}
