package modeltest

import (
	"fmt"
	"log"
	"net"
	"net/http"
)

// ListenAndServeScript serves the script (a JSON array of turns, see
// ParseScript) at addr until the process ends, for tests that need the
// server in another process. It logs the base URL to use, which matters
// when addr's port is 0, and logs requests that find no turn.
func ListenAndServeScript(addr string, scriptJSON []byte) error {
	turns, err := ParseScript(scriptJSON)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("modeltest: %w", err)
	}
	log.Printf("modeltest: serving at http://%s/v1", ln.Addr())
	return http.Serve(ln, newHandler(turns, log.Printf))
}
