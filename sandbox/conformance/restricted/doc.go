// Package restricted runs the conformance suite where AppArmor restricts
// unprivileged user namespaces and wisp's profile is not loaded, simulated
// in a user namespace of the test's own, and checks what doctor says of
// it. It holds tests only; see package conformance.
package restricted
