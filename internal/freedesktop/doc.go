// Package freedesktop is wisp-bar's Linux notification face: banners with
// buttons over D-Bus (org.freedesktop.Notifications), and the person's
// clicks on them translated back into events keyed by wisp's request id.
// It owns nothing else; what a click means (approve, deny, open details) is
// the bar core's decision, and so is making a repeated answer harmless.
//
// It imports only godbus and the standard library. The code is plain Go and
// builds everywhere; it is useful wherever a D-Bus session bus runs (Linux,
// the BSDs). On macOS wisp-bar uses package darwin instead.
//
// # The protocol as wisp uses it
//
// Show calls Notify with app_name "wisp", the banner's actions flattened to
// key, label pairs, expire_timeout 0 (never expire; -1, the server's own,
// for a banner that may Expire), the hint urgency (critical for what may not
// wait: a request to run outside the sandbox), resident true when asked
// (keep the banner after a click) and, when set, category. A second Show for
// the same request passes the notification id as replaces_id, so the banner
// is updated in place. Withdraw calls CloseNotification.
//
// Connect needs a server on the bus. Attach does not: it follows
// org.freedesktop.Notifications through NameOwnerChanged (believed only from
// the bus daemon), asks a server that appears for its capabilities, forgets
// the banners of one that leaves (they went with it), and reports each change
// as a Status. With a Record file it keeps the ids of the banners it shows,
// with the bus's id and the server's and its own unique names, rewritten
// atomically, and at Attach closes what a Notifier that ended without Close
// left, when that one's connection is gone and the same server still shows
// them. Reach, for wisp doctor, says what is on the bus and starts nothing.
//
// Servers send ActionInvoked and NotificationClosed to the connection that
// called Notify, and some (dunst, verified) send them to that connection
// only. So a Notifier keeps ONE connection for its whole life, and banners
// it posted cannot be answered after it is gone: Close withdraws them.
//
// Only the bus daemon can set a signal's sender, but any program of the
// person's (a sandboxed command included) can connect to the session bus and
// emit an ActionInvoked with a guessed id, and any can call
// CloseNotification. A Notifier therefore acts on a signal only when its
// sender is the unique name that owned org.freedesktop.Notifications when
// the banner was posted, and only for an id it posted itself; everything
// else, other programs' notifications included, is dropped.
//
// # Events
//
// ActionInvoked(id, key) becomes Event{ID, Action: key, Serial}, where
// Serial is the caller's Banner.Serial of the banner last posted in that
// notification (every event carries it). A click on the body
// of the banner, where the server supports it and the banner lists an action
// with the key "default", arrives as Action "default": the bar maps it to
// "open details", never to an approval. Some servers emit ActionInvoked more
// than once for one click or let the person click again while the banner
// stays (dunst sent "deny" twice for one banner in the research notes);
// every signal is passed on, in order.
//
// NotificationClosed(id, reason) becomes Event{ID, Closed: true, Reason} and
// ends the Notifier's knowledge of that banner. A banner wisp withdrew is
// forgotten at once, so the NotificationClosed (reason 3) that the server
// sends in reply to Withdraw is never reported: a Closed event always means
// the person dismissed it, it expired, or something other than this Notifier
// closed it. An ActionInvoked the server sent in the instant before Withdraw
// may still be reported; the bar ignores answers for requests it no longer
// holds.
//
// # What the servers do (from the research notes; dunst verified on Debian 12)
//
//   - The "actions" capability is checked once, at Connect. Without it there
//     are no buttons; CheckActions says so, and the menu stays the way to
//     answer. A server can also advertise "actions" and draw no buttons
//     (quickshell, old Cinnamon): the menu is always the fallback.
//   - GNOME Shell and KDE Plasma draw the actions as buttons on the banner;
//     a click on the body sends "default".
//   - dunst and mako draw no buttons: the person reaches the actions through
//     a context menu (dunst, through its dmenu setting; mako, `makoctl menu`
//     or `makoctl invoke`), and a click on the body sends "default". dunst
//     keeps a critical banner with expire_timeout 0 until it is acted on or
//     dismissed, and did not close it after an action, even without resident;
//     its default action closed it (reason 2).
//   - Whether the banner stays after a click varies (resident is a hint, not
//     a promise, and libnotify's clients close it themselves), so the bar
//     withdraws a banner once its request is answered.
//   - Where the server advertises "body-markup", the body is markup; Show
//     escapes it there, so a command line shows exactly as written and its
//     text cannot hide or restyle parts of itself.
package freedesktop
