package runner

import "os"

// envFor is the environment a command run in mode gets: a confined one
// (the model's, and a person's `!`; under another sandbox too) goes
// without the variables that hold secrets
// (commandPolicy.sandbox.environment); a run outside the sandbox, approved
// or typed with `!!`, and one with the sandbox off (--unsafe) keep the
// person's whole environment, as the person's own privileges.
func (r *Runner) envFor(mode Mode) []string {
	if mode == ModeOutside || mode == ModeSandboxOff {
		return r.Env
	}
	env := r.Spec.CommandEnv(r.baseEnv())
	if mode == ModeConfined {
		env = r.proxyEnv(env)
	}
	return env
}

// DroppedEnv names the variables confined commands go without, in the
// order of wisp's environment: names only, never a value, for the model's
// limits text and `wisp sandbox report`.
func (r *Runner) DroppedEnv() []string {
	_, dropped := r.Spec.Env.Filter(r.baseEnv())
	return dropped
}

func (r *Runner) baseEnv() []string {
	if r.Env == nil {
		return os.Environ()
	}
	return r.Env
}
