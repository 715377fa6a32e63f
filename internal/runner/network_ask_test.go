package runner_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/pending"
)

// answererEnv makes the test binary another process that answers the
// first network request in a pending folder, as `wisp approvals` and
// wisp-bar do, through the channel's own Answer: WISP_NET_ANSWERER=DIR
// and WISP_NET_DECISION=approve|deny.
const answererEnv = "WISP_NET_ANSWERER"

// TestNetworkByDomainAskedOutOfBand: a host in neither list is asked
// through the pending channel while curl's connection waits; another
// process approves it and curl gets its page, or declines it and curl
// gets the 403 and the model the sandbox line.
func TestNetworkByDomainAskedOutOfBand(t *testing.T) {
	if dir := os.Getenv(answererEnv); dir != "" {
		os.Exit(answerFirstNetworkRequest(dir, os.Getenv("WISP_NET_DECISION")))
	}
	n := newNetFixture(t)
	ch := pending.New(n.home.PendingDir(), pending.WithTimeout(time.Minute))
	n.r.Hosts = &approval.Hosts{Approvers: []approval.HostApprover{&approval.OutOfBand{Channel: ch, Face: pending.FaceChat, Audit: n.r.Audit}},
		Held: approval.NewHeld(n.home), Project: n.project}

	answerer := n.startAnswerer(t, "approve")
	res := n.model(t, fmt.Sprintf("curl -sS --fail http://asked.test:%d/oob", n.port))
	if err := answerer.Wait(); err != nil {
		t.Fatalf("the answering process: %v", err)
	}
	if res.ExitCode != 0 || !strings.Contains(res.Output, "hello from asked.test") {
		t.Fatalf("curl to a host approved out of band: exit %d\n%s", res.ExitCode, res.Output)
	}

	answerer = n.startAnswerer(t, "deny")
	res = n.model(t, fmt.Sprintf("curl -sS http://declined.test:%d/oob", n.port))
	if err := answerer.Wait(); err != nil {
		t.Fatalf("the answering process: %v", err)
	}
	host := fmt.Sprintf("declined.test:%d", n.port)
	if !strings.Contains(res.Output, "wisp: network to "+host+" refused: not in allowedDomains; the person declined") ||
		res.SandboxLine != "sandbox: network to "+host+" was refused (not in allowedDomains; the person declined)" {
		t.Fatalf("curl to a host declined out of band: sandbox line %q\n%s", res.SandboxLine, res.Output)
	}
	d := n.decisions(t)
	if len(d) != 2 || d[0]["allowed"] != true || d[0]["by"] != "test-answerer" || d[0]["scope"] != "once" || d[1]["allowed"] != false {
		t.Errorf("network.decision events = %v", d)
	}
}

func (n *netFixture) startAnswerer(t *testing.T, decision string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestNetworkByDomainAskedOutOfBand$", "-test.count=1")
	cmd.Env = append(os.Environ(), answererEnv+"="+n.home.PendingDir(), "WISP_NET_DECISION="+decision)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// answerFirstNetworkRequest watches dir and answers the first network
// request it lists, then exits: 0 once answered, 1 on failure.
func answerFirstNetworkRequest(dir, decision string) int {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ch := pending.New(dir)
	answered := make(chan error, 1)
	go ch.Watch(ctx, func(list []pending.Pending) {
		for _, p := range list {
			if _, _, _, ok := pending.NetworkTarget(p.Request); ok && !p.Answered {
				_, err := ch.Answer(p, decision, pending.ScopeOnce, "test-answerer")
				select {
				case answered <- err:
				default:
				}
				return
			}
		}
	})
	select {
	case err := <-answered:
		if err != nil {
			fmt.Fprintln(os.Stderr, "answerer:", err)
			return 1
		}
		return 0
	case <-ctx.Done():
		fmt.Fprintln(os.Stderr, "answerer: no network request came")
		return 1
	}
}
