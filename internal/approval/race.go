package approval

import (
	"context"
	"errors"
)

// race asks every approver at once. The first answer wins; the others are
// withdrawn (their ctx is cancelled) and waited for, so no prompt or
// pending file outlives the decision. An approver that cannot ask drops
// out; when all do, race returns ErrCannotAsk.
func race(ctx context.Context, approvers []Approver, req Request) (Answer, error) {
	ctx, cancelCause := context.WithCancelCause(ctx)
	cancel := func() { cancelCause(nil) }
	defer cancel()
	type reply struct {
		ans Answer
		err error
	}
	replies := make(chan reply, len(approvers))
	for _, a := range approvers {
		go func() {
			ans, err := a.Ask(ctx, req)
			replies <- reply{ans, err}
		}()
	}
	var failure error
	for received := 1; received <= len(approvers); received++ {
		r := <-replies
		if r.err == nil {
			cancelCause(Answered{r.ans}) // the others say what was answered, and by whom
			for range len(approvers) - received {
				<-replies
			}
			return r.ans, nil
		}
		if failure == nil || errors.Is(failure, ErrCannotAsk) {
			failure = r.err
		}
	}
	if err := ctx.Err(); err != nil {
		return Answer{}, err
	}
	return Answer{}, failure
}
