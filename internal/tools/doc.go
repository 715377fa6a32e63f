// Package tools owns the model's tools, the same for every face that
// hands them to a model or an agent (wisp chat and respond, wisp mcp):
// run_command, add_directory and inspect, with their schemas, their
// guidance (docs/decisions.md, D12 and D14), and their results, and the
// grant nudge that points a model at add_directory.
//
// Every command goes through runner.Run. A denial or a refusal comes back
// as the tool's text, not as an error (docs/decisions.md, D3), so the model can adapt.
//
// It imports runner, approval's types, sandbox and config; never a face.
package tools
