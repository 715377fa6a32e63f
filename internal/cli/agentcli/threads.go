package agentcli

import (
	"fmt"

	"github.com/wisp-sh/wisp/internal/app"
	"github.com/wisp-sh/wisp/internal/cli"

	"github.com/spf13/cobra"
	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/chat"
)

func newThreadsCmd(f *app.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "threads",
		Short: "List the recorded conversations: id, age, folder and first message, the newest first",
		Long: `List the conversations recorded in threads/ under wisp's home, the newest
first: each thread's id, how long ago it was last written, the folder it works
in, and its first message. A chat is recorded from its first message on.
wisp chat --resume continues the newest of the folder it is started in, and
wisp chat --resume ID the one with ID (from its own folder, or with --here).`,
		Example: `  wisp threads
  wisp chat --resume 20261014T125100-1a2b3c4d`,
		Args: cli.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runThreads(f)
		},
	}
}

func runThreads(f *app.Factory) error {
	home, err := f.Home()
	if err != nil {
		return err
	}
	all, err := agent.ListThreads(home.ThreadsDir())
	if err != nil {
		return err
	}
	for _, l := range chat.ThreadLines(all, f.Now(), 0) {
		fmt.Fprintln(f.Stdout, l)
	}
	return nil
}
