package mcp

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/wisp-sh/wisp/internal/tools"
)

// Options is what the server serves.
type Options struct {
	// Version is wisp's version, told to the client with the name wisp.
	Version string
	// Toolbox runs the tool calls; its Definitions are the tools offered.
	Toolbox *tools.Toolbox
	// Logger receives the SDK's own log; nil discards it (stdout is the
	// protocol, and a client shows stderr as errors).
	Logger *slog.Logger
}

// instructions tell the client's model what wisp is for.
const instructions = "wisp runs shell commands for you under the operator's command lists and a kernel " +
	"sandbox that lets a command write only under the writable roots (inspect what=limits says which). " +
	"A command the risk calls for is put to the person; you cannot answer that question yourself. " +
	"A denial or a refusal comes back as the tool's result: read it and adapt."

// firstMultiRoundTrip is the first protocol version that forbids a
// request from the server in the middle of a call (SEP-2322). wisp's gate
// asks the person while run_command waits, so it speaks the versions
// before it; a newer client negotiates down in the handshake.
const firstMultiRoundTrip = "2026-07-28"

// NewServer builds the MCP server: the name wisp, its version, and one
// tool per definition of the toolbox.
func NewServer(opts Options) *sdk.Server { return newServer(opts, context.Background()) }

// newServer ends every call in flight when stopping is done: the SDK's
// own close waits for the calls, and would wait for their commands.
func newServer(opts Options, stopping context.Context) *sdk.Server {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "wisp", Version: opts.Version}, &sdk.ServerOptions{
		Instructions:              instructions,
		Logger:                    logger,
		Capabilities:              &sdk.ServerCapabilities{}, // tools only: no logging
		SupportedProtocolVersions: handshakeVersions(),
	})
	for _, d := range opts.Toolbox.Definitions() {
		s.AddTool(tool(d), handler(opts.Toolbox, d.Name, stopping))
	}
	return s
}

// Serve runs one session over in and out (stdin and stdout for `wisp
// mcp`) until the client disconnects or ctx ends. Either way every call
// still in flight is cancelled, which stops its command's process group
// and withdraws its questions (removing their pending files), and Serve
// returns only once they have all finished.
func Serve(ctx context.Context, opts Options, in io.ReadCloser, out io.WriteCloser) error {
	return newServer(opts, ctx).Run(ctx, &sdk.IOTransport{Reader: in, Writer: out})
}

func handshakeVersions() []string {
	return slices.DeleteFunc(sdk.SupportedProtocolVersions(), func(v string) bool { return v >= firstMultiRoundTrip })
}

// tool is a definition as MCP lists it, with hints for the client.
func tool(d tools.Definition) *sdk.Tool {
	t := &sdk.Tool{Name: d.Name, Description: d.Description, InputSchema: d.Parameters}
	yes, no := true, false
	switch d.Name {
	case "run_command":
		t.Annotations = &sdk.ToolAnnotations{Title: "Run a command in wisp's sandbox", DestructiveHint: &yes, OpenWorldHint: &yes}
	case "add_directory":
		t.Annotations = &sdk.ToolAnnotations{Title: "Ask to add a writable folder", DestructiveHint: &no, OpenWorldHint: &no}
	case "inspect":
		t.Annotations = &sdk.ToolAnnotations{Title: "Read wisp's limits and outputs", ReadOnlyHint: true, OpenWorldHint: &no}
	}
	return t
}

// handler runs one call through the toolbox. The call's session travels
// in ctx, so the elicitation approver asks the client that called. The
// call ends when the client cancels it, leaves, or the server stops.
func handler(tb *tools.Toolbox, name string, stopping context.Context) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		defer context.AfterFunc(stopping, cancel)()
		out, err := tb.Call(withSession(ctx, req.Session), name, string(req.Params.Arguments))
		text := out.Text
		if err != nil {
			text = "error: wisp could not finish " + name + ": " + err.Error()
		}
		return &sdk.CallToolResult{
			Content: []sdk.Content{&sdk.TextContent{Text: text}},
			IsError: strings.HasPrefix(text, "error: "),
		}, nil
	}
}

type sessionKey struct{}

func withSession(ctx context.Context, ss *sdk.ServerSession) context.Context {
	return context.WithValue(ctx, sessionKey{}, ss)
}

func sessionFrom(ctx context.Context) *sdk.ServerSession {
	ss, _ := ctx.Value(sessionKey{}).(*sdk.ServerSession)
	return ss
}
