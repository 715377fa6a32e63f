//go:build linux

package main

import (
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/testenv"
)

// Root writes outside the sandbox's roots whoever owns the folder, reads
// every pending file and owns the terminal whatever it is: the screen's
// tests run again as a person's account, this test binary as the
// unprivileged CI user.
func TestTUIAsAnUnprivilegedUser(t *testing.T) {
	r := testenv.NewRerun(t)
	names := []string{"TestTUIModelCommandRefusedAndNamed", "TestTUIOutsideRequestApprovedThenDenied",
		"TestTUITypedCommandsInAndOutsideTheSandbox", "TestTUIAnswersAnotherProcessFromTheList", "TestTUIResize",
		"TestTUITypedCommandGetsTheTerminal", "TestTUIDialogAnsweredElsewhereFirst", "TestTUICtrlCStopsTheModelsCommand",
		"TestTUIChatsSlashCommands"}
	r.Run(t, "^("+strings.Join(names, "|")+")$", []string{"HOME=" + personalDir(t, r.UID, r.GID)}, names...)
}
