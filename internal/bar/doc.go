// Package bar is the menu-bar helper's platform-neutral core: it turns the
// requests waiting in wisp's pending folder into a menu and into banners,
// and a person's clicks on either into answers written through package
// pending, bound to the bytes that were shown.
//
// What is shown is computed by pure functions (BuildMenu, BannerFor,
// DetailsFor, Icon) from a View of the state, so it is table-tested without
// any UI. A Bar runs one loop that owns the state: it watches the folder
// (pending.Channel.Watch: fsnotify on the folder, a full rescan at start and
// after a watcher error, bursts coalesced), hands the menu to a Tray, raises
// and withdraws banners through a Face, and answers. The platform faces
// (freedesktop on Linux, darwin on macOS) and the tray library are wired in
// by cmd/wisp-bar; this package imports neither.
//
// The rules it keeps:
//   - The menu alone is a complete approval UI: banners are often hidden,
//     and some notification servers never show their buttons.
//   - A click on a banner's body opens details; it never approves.
//   - An answer is bound to the binding of the bytes the person saw: the
//     menu's keys carry it, and a banner's click is matched to the binding
//     its banner showed. When the request changed since, nothing is written.
//   - Answering is idempotent (pending.Channel.Answer): a second click, or a
//     server that reports one click twice, writes nothing new.
//   - Identical requests from one requester raise one banner at a time.
//   - A banner lives as long as its request: withdrawn, Details included,
//     once the request is answered anywhere, withdrawn, expired, changed or
//     its requester has died, and all of them when the Bar ends or the
//     face says banners are off (a server that left took them).
//   - Each banner shown carries a serial the face reports back with every
//     event about it: a close or a click is about that banner, not merely
//     its request, so the close of a banner Details replaced changes
//     nothing, and a click answers for the bytes that banner showed.
//   - A malformed file is never shown as approvable: only what
//     pending.Channel lists is shown.
package bar
