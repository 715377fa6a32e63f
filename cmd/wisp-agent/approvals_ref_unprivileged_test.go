//go:build linux

package main

import (
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/testenv"
)

// Root reads and writes every pending file whoever owns it, so answering
// by id prefix and digest across processes runs again as a person's
// account: this test binary as the unprivileged CI user.
func TestApprovalsByReferenceAsAnUnprivilegedUser(t *testing.T) {
	r := testenv.NewRerun(t)
	names := []string{"TestApproveByIDPrefixFromAnotherProcess", "TestDenyByDigestThenAnsweredElsewhere",
		"TestNeverFiledAndMalformedReferences", "TestAmbiguousPrefixListsTheCandidates",
		"TestPendingPipedAndJSONSayOutsideReasonsAndScopes"}
	r.Run(t, "^("+strings.Join(names, "|")+")$", []string{"HOME=" + personalDir(t, r.UID, r.GID)}, names...)
}
