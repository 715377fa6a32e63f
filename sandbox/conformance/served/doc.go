// Package served runs the conformance suite as root through the served
// helper (one helper per confinement, sent each command), in each
// namespace mode it has. It holds tests only; see package conformance.
package served
