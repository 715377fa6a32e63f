// Package pending owns the out-of-band approval channel on disk: the
// request and answer files in wisp's pending folder, the SHA-256 binding
// between them, their atomic writes and their careful reads, and watching
// the folder.
//
// Two sides speak it. The requester (the gate inside a waiting `wisp`)
// files a request with [Channel.File] and waits for its answer with
// [Filed.Wait]. The answering faces (`wisp approvals`, the menu-bar helper
// wisp-bar) list what waits with [Channel.List] or [Channel.Watch] and
// answer with [Channel.Answer]. docs/pending.md is the contract, written
// for someone implementing another face.
//
// The package imports no other wisp package: both binaries use it, and the
// approval gate, which sits above it, audits what it reports.
package pending
