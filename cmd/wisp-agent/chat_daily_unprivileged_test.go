//go:build linux

package main

import (
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/testenv"
)

// Root reads every file whoever owns it and is not held by Landlock the
// way a person is in every respect, so the daily chat's tests that read
// the project's files, write the threads and run the model's commands in
// the sandbox run again as the unprivileged CI user.
func TestChatDailyAsAnUnprivilegedUser(t *testing.T) {
	r := testenv.NewRerun(t)
	names := []string{"TestChatSendsAGENTSmdToTheModel", "TestChatThreadsListedAndResumed",
		"TestChatModelsSlowCommandShowsItsLiveLines", "TestChatRendersMarkdownAndShowsACutOutput"}
	r.Run(t, "^("+strings.Join(names, "|")+")$", []string{"HOME=" + personalDir(t, r.UID, r.GID)}, names...)
}
