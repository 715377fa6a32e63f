// Package sandbox owns what a confined command may do and how each system
// enforces it.
//
// A Spec says it in platform-neutral terms: the writable roots (the launch
// directory, the temporary and cache directories, the toolchain caches, the
// configured and granted folders), the paths protected even inside a root
// (wisp's home, a repository's .git/hooks and .git/config), and whether the
// network is on. NewSpec builds it; a Backend turns it into the argv that runs
// `/bin/sh -c LINE` confined. The backends live apart and register with this
// front at init (Register, RegisterHelper), so the front imports none:
//
//   - Linux (sandbox/landlock): wisp runs the helper `wisp-sandbox
//     __sandbox-exec` (cmd/wisp-sandbox, HelperMain), found beside wisp and
//     verified (TrustedBeside), or, where there is none, re-executes itself
//     as it. The helper sets no_new_privs, binds the protected paths
//     read-only in a private mount namespace where one can be had, applies
//     Landlock and execs the shell (or stays as its parent, to end what it
//     leaves).
//   - macOS (sandbox/seatbelt): `sandbox-exec` with a generated profile, the
//     paths passed as -D parameters, never spliced into the text.
//
// Detect picks the backend a program linked or says, as an ErrUnavailable,
// why there is none: callers fail closed. Report describes what is enforced
// here, for `wisp doctor`. The refusal check lives in sandbox/refusal.
//
// The package imports only the standard library: never
// net/http, never another wisp package but the sandbox's own parts. The
// helper runs before every confined command: a main calls
// MaybeHelperMain first thing, and nothing here does work at init.
package sandbox
