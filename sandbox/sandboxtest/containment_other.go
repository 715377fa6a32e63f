//go:build !linux && !darwin

package sandboxtest

import "testing"

// The containment cases probe Linux's system calls; elsewhere they skip.

func (s *suite) metadataOutsideRefused(t *testing.T)     { t.Skip("Linux only") }
func (s *suite) setuidRefused(t *testing.T)              { t.Skip("Linux only") }
func (s *suite) inheritedDescriptorsClosed(t *testing.T) { t.Skip("Linux only") }
func (s *suite) listenRefused(t *testing.T)              { t.Skip("Linux only") }
func (s *suite) fastOpenRefused(t *testing.T)            { t.Skip("Linux only") }
func (s *suite) otherFamiliesRefused(t *testing.T)       { t.Skip("Linux only") }
func (s *suite) otherTerminalRefused(t *testing.T)       { t.Skip("Linux only") }

// HoldInheritedFD does nothing where the case does not run.
func HoldInheritedFD() {}
