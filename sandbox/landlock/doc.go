// Package landlock is wisp's sandbox backend on Linux: the helper that
// confines a command (Landlock rules, the seccomp filter, the mount, user
// and network namespaces, the read-only view of wisp's home), the served
// helper and wisp's side of it, the reaper of what a command leaves
// running, the namespace probe and its cache, AppArmor detection, exit
// watching and descriptors. It registers with the front (package sandbox)
// at init: a program links it by importing it, and calls
// sandbox.MaybeHelperMain first thing to be its own helper.
package landlock
