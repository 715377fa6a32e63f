package chat

import "github.com/wisp-sh/wisp/approval"

// FreshKeys is the chat's terminal dialog. The dialog itself drops what
// was typed before it showed (approval.Terminal), so keys typed ahead
// while the model worked ("yes please" meant for the chat) answer
// nothing; between lines the chat's terminal does not echo them either
// (Editor).
type FreshKeys struct{ *approval.Terminal }
