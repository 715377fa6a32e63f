// Package oneshot runs the conformance suite as root with a helper of the
// command's own, in each namespace mode forced and in the one the probe
// picks. It holds tests only; see package conformance.
package oneshot
