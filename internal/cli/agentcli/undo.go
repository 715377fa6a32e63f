package agentcli

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/wisp-sh/wisp/audit"
	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/app"
	"github.com/wisp-sh/wisp/internal/app/agentapp"
	"github.com/wisp-sh/wisp/internal/checkpoint/undo"
	"github.com/wisp-sh/wisp/internal/cli"
)

func newUndoCmd(f *app.Factory) *cobra.Command {
	var list bool
	cmd := &cobra.Command{
		Use:   "undo [--list] [N]",
		Short: "Take back the model's changes to this folder: the last turn, or back to checkpoint N",
		Long: `Put the folders of the project launched here back as they were before the
last turn of a chat, tui or respond run (or before turn N: wisp undo --list
shows the checkpoints, newest first). It shows what will change first (files
added, removed and modified, with a short summary of the lines) and asks once;
files changed by hand or by another program since the turn are listed, and
kept unless you say overwrite. The undo is itself a checkpoint: the chat's
/redo, or wisp undo N, takes it back. It is written to the audit log
(checkpoint.restored).

An undo covers the launch folder and commandPolicy.sandbox.writablePaths. It
cannot take back what left them: files written elsewhere (a !! run, a run
approved outside the sandbox, the caches and temporary folders), anything sent
over the network (a push, a publish), processes still running, what
.gitignore leaves out, and the project's .git beyond the working tree.`,
		Example: `  wisp undo --list
  wisp undo
  wisp undo 12`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runUndo(f, list, args)
		},
	}
	cmd.Flags().BoolVar(&list, "list", false, "list the checkpoints taken before each turn, newest first")
	return cmd
}

// errCheckpointsOff is wisp undo's answer when there is no store to undo from.
var errCheckpointsOff = errors.New("checkpoints are off (checkpoints.enabled), so there is nothing to undo")

func runUndo(f *app.Factory, list bool, args []string) error {
	home, cfg, err := f.Config()
	if err != nil {
		return err
	}
	dir, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("find this folder: %w", err)
	}
	if !cfg.Checkpoints.Enabled {
		return cli.WithHint(errCheckpointsOff, "wisp config set checkpoints.enabled true takes one before each turn from then on")
	}
	userHome, _ := f.UserHome()
	roots, err := agentapp.CheckpointRoots(dir, cfg.CommandPolicy.Sandbox.WritablePaths, userHome, home.Dir)
	if roots == nil {
		return err
	}
	cps, err := agent.OpenCheckpoints(cfg.Checkpoints, home, roots)
	if err != nil {
		return err
	}
	defer cps.Store.Close()
	if r := cps.Store.Recovered(); r != nil {
		fmt.Fprintln(f.Stdout, "· "+r.String())
	}
	log := audit.New(home, audit.NewSession(), os.Getpid(), f.Now)
	defer log.Close()
	return undo.Command(cps.Store, list, args, f.Stdin, f.Stdout, func(d *undo.Done) { agent.AuditRestore(log, d, "cli") })
}
