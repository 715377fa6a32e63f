// Package person runs the conformance suite as the unprivileged test user,
// where root's answers do not hold. It holds tests only; see package
// conformance.
package person
