// Package checkpoint owns wisp's checkpoints: records of the state of the
// folders a person works in (the launch folder and the folders granted to
// the model), taken before each turn so that what the turn changed there
// can be shown and undone, and the undo undone.
//
// A [Store] lives in wisp's home, one per project
// (~/.wisp/checkpoints/<project-key>/, see [Dir]). It is content-addressed:
// each file's content is an object named by its SHA-256, each folder a tree
// object listing its entries (name, kind, mode, size, content hash or link
// target), and a checkpoint a small record naming one tree per root. Two
// checkpoints share every object they have in common, so a checkpoint after
// a turn that changed ten files costs ten objects and the trees above them.
// A cached index of each file's stat (size, mtime, ctime, inode, mode) and
// content hash, with git's racy-timestamp rule, makes an unchanged file
// cost a stat and not a read.
//
// What a checkpoint records: regular files (content and permission bits),
// symbolic links (their target, never followed) and folders, empty ones
// included. What it leaves out: whatever the project's .gitignore files
// leave out (though the .gitignore files themselves are always recorded,
// so that a checkpoint carries the rules it was taken under), every entry
// named .git (a repository's own folder, or a worktree's pointer file,
// which the package never reads nor touches), the paths the caller names
// in [Options.Skip] (wisp's home), and sockets, pipes and devices. What a
// checkpoint does not record, a restore never removes: a folder that holds
// such entries is kept, and said to be.
//
// A restore puts back content, the permission bits (never a set-id bit)
// and link targets; not times (a restored file is new to build tools, so
// they rebuild it), owners (as root, an entry takes the owner of what it
// replaces), extended attributes, or hard links between files.
//
// [Store.Restore] brings the roots back to a checkpoint: it first takes a
// checkpoint of the present (so the restore can itself be undone), writes
// every file it will put back as a temporary file beside it (fsync'd), and
// only then, under a journal in the store, renames them into place and
// removes what the checkpoint did not have. A crash leaves each file old
// or new, never half written; the next [Open] rolls a restore that had not
// started changing the roots back, and finishes one that had.
//
// The package imports no other wisp package: the faces and the runner
// above it decide when to take a checkpoint, ask the person, and audit.
package checkpoint
