#!/bin/sh
# A person's session with git in an existing repository (its remote
# "origin" is the repository itself): commits, a branch and a rebase, a
# stash, a worktree, a bisect, gc, and setting a branch's upstream. Each
# step checks what a person would look at; the first that fails ends the
# session with a line that says which.
set -eu
export GIT_AUTHOR_NAME=compat GIT_AUTHOR_EMAIL=compat@example.invalid
export GIT_COMMITTER_NAME=compat GIT_COMMITTER_EMAIL=compat@example.invalid

fail() { echo "git-session: $*" >&2; exit 1; }
commit() { # file, text: change a file and commit it
	echo "$2" >>"$1"
	git add "$1"
	git commit -q -m "$1: $2"
}

step=commits
commit notes.txt one
commit notes.txt two
[ "$(git rev-list --count HEAD)" -ge 5 ] || fail "$step: expected the new commits in git log"

step=branch-and-rebase
git switch -q -c feature
commit feature.txt start
git switch -q main
commit notes.txt three
git switch -q feature
git rebase -q main
git merge-base --is-ancestor main feature || fail "$step: feature is not on top of main after the rebase"

step=stash
echo unsaved >>feature.txt
git stash push -q -m unsaved
git diff --quiet || fail "$step: the work tree is not clean after git stash"
git stash pop -q
grep -q unsaved feature.txt || fail "$step: git stash pop did not bring the change back"
git commit -q -am "feature: unsaved, saved"

step=worktree
git worktree add -q -b hotfix .worktrees/hotfix main
(cd .worktrees/hotfix && commit fix.txt fixed)
git worktree remove .worktrees/hotfix
git log --oneline hotfix | grep -q "fix.txt: fixed" || fail "$step: the worktree's commit is not on hotfix"

step=bisect
git switch -q main
for i in 1 2 3; do commit history.txt "good $i"; done
first_bad_parent=$(git rev-parse HEAD)
echo broken >bad
git add bad
git commit -q -m "introduce the bug"
bad=$(git rev-parse HEAD)
for i in 4 5; do commit history.txt "after $i"; done
git bisect start HEAD "$first_bad_parent~2" >/dev/null
git bisect run sh -c '! test -e bad' >bisect.out 2>&1 || { cat bisect.out; fail "$step: git bisect run failed"; }
grep -q "^$bad is the first bad commit" bisect.out || { cat bisect.out; fail "$step: bisect did not find the commit that introduced the bug"; }
git bisect reset >/dev/null 2>&1
rm bisect.out

step=gc
git gc -q
git fsck --no-progress >/dev/null || fail "$step: git fsck finds the repository broken after gc"

step=upstream
git fetch -q origin
git branch --set-upstream-to=origin/main main
[ "$(git rev-parse --abbrev-ref main@{upstream})" = origin/main ] || fail "$step: main's upstream is not origin/main"
git status -sb | head -n 1
echo "git-session: every step done"
