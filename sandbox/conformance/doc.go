// Package conformance holds no code: its subfolders are test-only packages
// that run the conformance suite (sandbox/sandboxtest) against Landlock, one
// group of modes each. They are packages of their own so that each has its
// own time limit and go test runs two of them at once: run as one package,
// the suite's seventeen runs took four of its five minutes on a quiet
// machine and went past them on a slower one. Each package's TestMain is sandboxtest.Main, which makes
// its test binary the helper and the probe.
//
//   - oneshot: one helper per command, as root, in every namespace mode
//   - served: the served helper, as root, in every namespace mode it has
//   - person: as the unprivileged test user
//   - restricted: where AppArmor restricts user namespaces
//   - installed: wisp-sandbox beside wisp as the helper, as root and as the
//     unprivileged test user, the helper's cases (sandboxtest.Options.HelperCases)
package conformance
