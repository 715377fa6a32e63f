package freedesktop

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/godbus/dbus/v5"
)

// closeAllTimeout bounds Close's withdrawing of every banner, so that a
// hung server cannot keep wisp-bar from exiting.
const closeAllTimeout = 2 * time.Second

// Withdraw removes the banner shown for request id. An id with no banner
// (never shown, already closed, already withdrawn) is not an error. After
// Withdraw returns, the NotificationClosed it causes is not reported.
func (n *Notifier) Withdraw(id string) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return ErrClosed
	}
	key, ok := n.forgetRequest(id)
	if !ok {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	if err := n.closeNotification(ctx, key); err != nil {
		return fmt.Errorf("withdraw the banner for request %s: %w", id, err)
	}
	return nil
}

// closeNotification asks the server to close one notification. It does
// nothing when another server owns the name now: that server's notification
// with the same number is somebody else's. A D-Bus error reply means the
// server no longer has it (the specification's answer for a closed one),
// which is what Withdraw wants. Callers hold n.mu.
func (n *Notifier) closeNotification(ctx context.Context, key notificationKey) error {
	owner, err := n.serverOwner()
	if err != nil {
		return err
	}
	if owner != key.server {
		return nil
	}
	err = n.service().CallWithContext(ctx, serviceFace+".CloseNotification", 0, key.id).Err
	var reply dbus.Error
	if errors.As(err, &reply) {
		return nil
	}
	return err
}

// Close withdraws every banner this Notifier still shows (nobody could
// answer them once its connection is gone), stops the events and closes
// Events(). It closes the connection only when ConnectSession opened it.
func (n *Notifier) Close() error {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return nil
	}
	n.closed = true
	err := n.withdrawAll()
	n.mu.Unlock()

	close(n.done)
	n.conn.RemoveSignal(n.signals)
	<-n.loopDone
	if n.ownsConn {
		return errors.Join(err, n.conn.Close())
	}
	return errors.Join(err, n.conn.RemoveMatchSignal(matchOptions()...))
}

// withdrawAll closes every banner still shown. Callers hold n.mu.
func (n *Notifier) withdrawAll() error {
	ctx, cancel := context.WithTimeout(context.Background(), closeAllTimeout)
	defer cancel()
	var errs []error
	for request := range n.byRequest {
		key, _ := n.forgetRequest(request)
		if err := n.closeNotification(ctx, key); err != nil {
			errs = append(errs, fmt.Errorf("withdraw the banner for request %s: %w", request, err))
		}
	}
	return errors.Join(errs...)
}
