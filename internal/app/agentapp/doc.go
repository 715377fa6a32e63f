// Package agentapp is the part of wisp's assembly only the agent's commands
// need: the conversation (the agent with its model, tools and thread, new
// or resumed), the model check and the model's toolbox over a session's
// runner. It is apart from internal/app because it links the model client
// and the agent, which the lean wisp must not link (docs/architecture.md,
// layer 5 and TestLeanBuildLinksNoFace).
package agentapp
