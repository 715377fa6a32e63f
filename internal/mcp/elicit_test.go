package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/internal/tools"
	"github.com/wisp-sh/wisp/pending"
	"github.com/wisp-sh/wisp/policy"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

var (
	outsideRequest = approval.Request{
		ID: "3f2a9c015e77d410", Line: "brew upgrade", Dir: "/Users/ana/src/shop", OutsideSandbox: true,
		Level: policy.Moderate, Reasons: []string{pending.OutsideReason, "brew is not on the risk lists, so it counts as moderate"},
		Scopes: []approval.Scope{approval.Once},
	}
	ordinaryRequest = approval.Request{
		ID: "a0b1c2d3e4f50617", Line: "rm -r build", Dir: "/Users/ana/src/shop",
		Level: policy.High, Reasons: []string{"rm deletes files"}, Scopes: approval.AllScopes,
	}
	prefixRequest = approval.Request{
		ID: "b1c2d3e4f5061728", Line: "go test ./pkg/a", Dir: "/Users/ana/src/shop",
		Level: policy.Moderate, Reasons: []string{"go test builds and runs the tests"}, Scopes: approval.AllScopes,
		Prefixes: []string{"go test …"},
	}
	grantRequest = approval.Request{
		ID: "c2d3e4f506172839", Line: "add_directory /srv", Dir: "/Users/ana/src/shop", Level: policy.Moderate, Grant: "/srv",
		Reasons: []string{"the model says: the site is served from there", "lets every command write under /srv for the rest of this session"},
		Scopes:  []approval.Scope{approval.Once},
	}
)

// The dialogs as the client receives them: golden files a reviewer reads.
func TestDialogs(t *testing.T) {
	for name, req := range map[string]approval.Request{"outside": outsideRequest, "ordinary": ordinaryRequest,
		"prefix": prefixRequest, "grant": grantRequest} {
		got, err := json.MarshalIndent(Dialog(req), "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", "dialog-"+name+".json")
		if *update {
			os.WriteFile(golden, append(got, '\n'), 0o644)
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(append(got, '\n'), want) {
			t.Errorf("%s dialog differs from %s (go test -update rewrites it):\n%s", name, golden, got)
		}
	}
}

func TestAnswerTellsEachActionApart(t *testing.T) {
	cases := []struct {
		name string
		res  sdk.ElicitResult
		want approval.Answer
	}{
		{"accept without a scope is once", sdk.ElicitResult{Action: "accept"},
			approval.Answer{Approve: true, Scope: approval.Once, By: ElicitationName}},
		{"accept with a scope", sdk.ElicitResult{Action: "accept", Content: map[string]any{"scope": "project"}},
			approval.Answer{Approve: true, Scope: approval.Project, By: ElicitationName}},
		{"a scope that is none is once", sdk.ElicitResult{Action: "accept", Content: map[string]any{"scope": "forever"}},
			approval.Answer{Approve: true, Scope: approval.Once, By: ElicitationName}},
		{"accept holding the prefix", sdk.ElicitResult{Action: "accept", Content: map[string]any{"scope": "session-prefix"}},
			approval.Answer{Approve: true, Scope: approval.Session, Prefix: true, By: ElicitationName}},
		{"once-prefix holds nothing", sdk.ElicitResult{Action: "accept", Content: map[string]any{"scope": "once-prefix"}},
			approval.Answer{Approve: true, Scope: approval.Once, By: ElicitationName}},
		{"a prefix of no scope is once", sdk.ElicitResult{Action: "accept", Content: map[string]any{"scope": "forever-prefix"}},
			approval.Answer{Approve: true, Scope: approval.Once, By: ElicitationName}},
		{"decline", sdk.ElicitResult{Action: "decline"}, approval.Answer{By: ElicitationName, Reason: DeclinedReason}},
		{"cancel", sdk.ElicitResult{Action: "cancel"}, approval.Answer{By: ElicitationName, Reason: CancelledReason}},
		{"anything else is no", sdk.ElicitResult{Action: "yes please"}, approval.Answer{By: ElicitationName,
			Reason: `the MCP client answered "yes please", which is not accept, decline or cancel`}},
	}
	for _, c := range cases {
		if got := answer(&c.res); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

// connect serves an empty toolbox to a Go SDK client in memory and returns
// the server's side of the session.
func connect(t *testing.T, opts *sdk.ClientOptions, version string) (*sdk.ServerSession, *sdk.ClientSession) {
	t.Helper()
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := NewServer(Options{Version: "test", Toolbox: &tools.Toolbox{}}).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "go-client", Version: "1"}, opts)
	cs, err := client.Connect(ctx, ct, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Close() })
	return ss, cs
}

func answering(action string) *sdk.ClientOptions {
	return &sdk.ClientOptions{ElicitationHandler: func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
		return &sdk.ElicitResult{Action: action}, nil
	}}
}

// A client on the newest protocol (which forbids asking mid-call) is
// negotiated down to one where the dialog can be asked.
func TestNewestClientIsAskedInTheHandshakeVersion(t *testing.T) {
	ss, cs := connect(t, answering("accept"), "")
	if got := cs.InitializeResult().ProtocolVersion; got >= firstMultiRoundTrip {
		t.Fatalf("negotiated %s, where the server may not ask mid-call", got)
	}
	ans, err := Elicitation{}.Ask(withSession(context.Background(), ss), outsideRequest)
	if err != nil || !ans.Approve {
		t.Fatalf("answer %+v, %v", ans, err)
	}
}

func TestClientWithoutElicitationCannotAsk(t *testing.T) {
	ss, _ := connect(t, nil, "2025-06-18")
	_, err := Elicitation{}.Ask(withSession(context.Background(), ss), outsideRequest)
	if !errors.Is(err, approval.ErrCannotAsk) {
		t.Errorf("err %v, want ErrCannotAsk", err)
	}
	if _, err := (Elicitation{}).Ask(context.Background(), outsideRequest); !errors.Is(err, approval.ErrCannotAsk) {
		t.Errorf("with no session: %v", err)
	}
}

// A client that fails to show the dialog has not answered: the error is
// not a "cannot ask" (another face may still answer, and alone nothing
// runs), and never an approval.
func TestAFailingDialogIsNoAnswer(t *testing.T) {
	ss, _ := connect(t, &sdk.ClientOptions{ElicitationHandler: func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
		return nil, errors.New("the dialog broke")
	}}, "2025-11-25")
	ans, err := Elicitation{}.Ask(withSession(context.Background(), ss), outsideRequest)
	if err == nil || errors.Is(err, approval.ErrCannotAsk) || ans.Approve {
		t.Errorf("answer %+v, err %v", ans, err)
	}
}

// A withdrawn question (another face answered, the call was cancelled) is
// cancelled at the client too.
func TestWithdrawnQuestionIsCancelledAtTheClient(t *testing.T) {
	shown, withdrawn := make(chan struct{}), make(chan struct{})
	ss, _ := connect(t, &sdk.ClientOptions{ElicitationHandler: func(ctx context.Context, _ *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
		close(shown)
		<-ctx.Done()
		close(withdrawn)
		return nil, ctx.Err()
	}}, "2025-11-25")
	ctx, cancel := context.WithCancel(withSession(context.Background(), ss))
	go func() { <-shown; cancel() }()
	if _, err := (Elicitation{}).Ask(ctx, ordinaryRequest); !errors.Is(err, context.Canceled) {
		t.Errorf("Ask returned %v, want context.Canceled", err)
	}
	<-withdrawn
}
