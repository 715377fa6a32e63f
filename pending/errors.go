package pending

import "errors"

// What the requester hears.
var (
	// ErrExpired: nobody answered before expiresAt. It is a denial, and
	// the gate says so as such.
	ErrExpired = errors.New("nobody answered the request before it expired, so it is denied")
	// ErrWithdrawn: the requester stopped waiting (its context was
	// cancelled, or Withdraw was called) before an answer came.
	ErrWithdrawn = errors.New("the request was withdrawn before anyone answered it")
)

// What an answering face hears.
var (
	// ErrGone: the request file is not there any more.
	ErrGone = errors.New("the request is no longer waiting: it was answered elsewhere, withdrawn or expired")
	// ErrAlreadyAnswered: another answer bound to the same request was
	// written first; the first answer stands.
	ErrAlreadyAnswered = errors.New("the request already has a different answer, and the first answer stands")
)

// Why a file is refused. Each refusal wraps one of these, with the detail.
var (
	ErrSymlink         = errors.New("the file is a symbolic link")
	ErrNotRegular      = errors.New("the file is not a regular file")
	ErrForeignOwner    = errors.New("the file belongs to another user")
	ErrLooseMode       = errors.New("other users may write the file")
	ErrTooLarge        = errors.New("the file is larger than 64 KiB")
	ErrMalformed       = errors.New("the file is not a well-formed pending file")
	ErrVersion         = errors.New("the file is of a version this wisp does not read")
	ErrWrongID         = errors.New("the answer is for another request")
	ErrWrongBinding    = errors.New("the answer is bound to other bytes than the request this wisp filed")
	ErrUnknownScope    = errors.New("the answer's scope is not one wisp knows")
	ErrScopeNotOffered = errors.New("the answer's scope is not one the request offered")
	ErrEarlyAnswer     = errors.New("the answer was there before its request was filed")
	ErrStale           = errors.New("the request's process is gone")
)

// Errors about the folder and the system.
var (
	// ErrUnsafeFolder: the pending folder is not a directory of this user
	// that only this user may write.
	ErrUnsafeFolder = errors.New("the pending folder is not safe to use")
	// ErrUnsupported: this system cannot tell a reused process id apart,
	// so a request cannot name its requester.
	ErrUnsupported = errors.New("the pending channel is not supported on this system")
)
