// Package installed runs the conformance suite with wisp-sandbox beside
// wisp as the helper, as an installation has it, as root and as the
// unprivileged test user. It holds tests only; see package conformance.
package installed
