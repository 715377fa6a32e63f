//go:build unix

package pending

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// answerJSON is an answer's bytes as a hostile writer may shape them.
func answerJSON(t testing.TB, a Answer) []byte {
	t.Helper()
	data, err := encode(a)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func validAnswer(id, binding string) Answer {
	return Answer{Version: 1, ID: id, Binding: binding, Decision: DecisionApprove, Scope: ScopeOnce, By: "test", AnsweredAt: time.Now().UTC()}
}

// plant puts data at dir/name the atomic way, after prepare has had its
// say on the file.
func plant(t testing.TB, dir, name string, data []byte, prepare func(path string)) {
	t.Helper()
	tmp := filepath.Join(dir, ".plant-"+name)
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if prepare != nil {
		prepare(tmp)
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
}

func plantBytes(data func(id, binding string) []byte) func(t *testing.T, dir, id, binding string) {
	return func(t *testing.T, dir, id, binding string) { plant(t, dir, answerName(id), data(id, binding), nil) }
}

// hostileAnswers are answers the requester must refuse, each with the
// reason it must give.
var hostileAnswers = []struct {
	name    string
	outside bool
	scopes  []string
	plant   func(t *testing.T, dir, id, binding string)
	want    error
}{
	{"answer for another request", true, nil, func(t *testing.T, dir, id, binding string) {
		plant(t, dir, answerName(id), answerJSON(t, validAnswer("0123456789abcdef", binding)), nil)
	}, ErrWrongID},
	{"answer bound to other bytes", true, nil, func(t *testing.T, dir, id, binding string) {
		plant(t, dir, answerName(id), answerJSON(t, validAnswer(id, Binding([]byte("other bytes")))), nil)
	}, ErrWrongBinding},
	{"unknown scope", false, nil, func(t *testing.T, dir, id, binding string) {
		a := validAnswer(id, binding)
		a.Scope = "forever"
		plant(t, dir, answerName(id), answerJSON(t, a), nil)
	}, ErrUnknownScope},
	{"scope not offered", false, []string{"once", "session"}, func(t *testing.T, dir, id, binding string) {
		a := validAnswer(id, binding)
		a.Scope = ScopeAlways
		plant(t, dir, answerName(id), answerJSON(t, a), nil)
	}, ErrScopeNotOffered},
	{"symbolic link to a valid answer", true, nil, func(t *testing.T, dir, id, binding string) {
		target := filepath.Join(t.TempDir(), "answer.json")
		os.WriteFile(target, answerJSON(t, validAnswer(id, binding)), 0o600)
		if err := os.Symlink(target, filepath.Join(dir, answerName(id))); err != nil {
			t.Fatal(err)
		}
	}, ErrSymlink},
	{"valid answer of another owner", true, nil, func(t *testing.T, dir, id, binding string) {
		if os.Geteuid() != 0 {
			t.Skip("giving a file to another user needs root")
		}
		plant(t, dir, answerName(id), answerJSON(t, validAnswer(id, binding)), func(path string) {
			if err := os.Chown(path, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		})
	}, ErrForeignOwner},
	{"valid answer others may write", true, nil, func(t *testing.T, dir, id, binding string) {
		plant(t, dir, answerName(id), answerJSON(t, validAnswer(id, binding)), func(path string) { os.Chmod(path, 0o666) })
	}, ErrLooseMode},
	{"10 MiB answer", true, nil, plantBytes(func(id, binding string) []byte {
		a := validAnswer(id, binding)
		a.By = strings.Repeat("x", 10<<20)
		data, _ := encode(a)
		return data
	}), ErrTooLarge},
	{"truncated answer", true, nil, plantBytes(func(id, binding string) []byte {
		data, _ := encode(validAnswer(id, binding))
		return data[:len(data)/2]
	}), ErrMalformed},
	{"not JSON", true, nil, plantBytes(func(id, binding string) []byte { return []byte("approve\n") }), ErrMalformed},
	{"unknown field", true, nil, plantBytes(func(id, binding string) []byte {
		data, _ := encode(validAnswer(id, binding))
		return []byte(strings.Replace(string(data), "{", `{"trustMe": true,`, 1))
	}), ErrMalformed},
	{"decision given twice", false, nil, plantBytes(func(id, binding string) []byte {
		a := validAnswer(id, binding)
		a.Decision = DecisionDeny
		data, _ := encode(a)
		return []byte(strings.Replace(string(data), "{", `{"decision": "approve",`, 1))
	}), ErrMalformed},
	{"decision in another case", false, nil, plantBytes(func(id, binding string) []byte {
		a := validAnswer(id, binding)
		a.Decision = DecisionDeny
		data, _ := encode(a)
		return []byte(strings.Replace(string(data), `"decision"`, `"Decision"`, 1))
	}), ErrMalformed},
	{"version 2", true, nil, plantBytes(func(id, binding string) []byte {
		a := validAnswer(id, binding)
		a.Version = 2
		data, _ := encode(a)
		return data
	}), ErrVersion},
	{"FIFO", true, nil, func(t *testing.T, dir, id, binding string) {
		if err := syscall.Mkfifo(filepath.Join(dir, answerName(id)), 0o600); err != nil {
			t.Fatal(err)
		}
	}, ErrNotRegular},
	{"directory", true, nil, func(t *testing.T, dir, id, binding string) {
		os.Mkdir(filepath.Join(dir, answerName(id)), 0o700)
	}, ErrNotRegular},
}

// Each hostile answer is refused by a real waiting requester, reported,
// and removed; the request stays listed, and a valid answer still decides
// it.
func TestHostileAnswersAreRefusedAndTheRequestKeepsWaiting(t *testing.T) {
	for _, tc := range hostileAnswers {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := pendingDir(t)
			r := startRequester(t, dir, childConfig{command: "touch /tmp/x", outside: tc.outside, scopes: tc.scopes})
			id := r.filed.ID
			tc.plant(t, dir, id, r.filed.Binding)
			refused := r.expect("refused")
			if !strings.Contains(refused.Reason, tc.want.Error()) || refused.File != filepath.Join(dir, answerName(id)) {
				t.Errorf("refusal = %q of %s, want it to say %q", refused.Reason, refused.File, tc.want)
			}
			assertStillWaiting(t, New(dir), id, r.filed.Binding)
			answerAndExpect(t, r, New(dir), id, DecisionApprove, ScopeOnce)
			assertEmpty(t, dir)
		})
	}
}

// assertStillWaiting checks a face still lists the request unanswered,
// with its original bytes, and that nothing else lies in the folder.
func assertStillWaiting(t *testing.T, c *Channel, id, binding string) {
	t.Helper()
	list, err := c.List()
	if err != nil || len(list) != 1 || list[0].Request.ID != id || list[0].Binding != binding || list[0].Answered {
		t.Fatalf("List = %+v, %v; want request %s alone, unanswered", list, err, id)
	}
	if names := folderNames(t, c.Dir); len(names) != 1 || names[0] != requestName(id) {
		t.Errorf("folder holds %q, want the request alone", names)
	}
}

// answerAndExpect answers request id as a face does and checks the
// requester decides as answered.
func answerAndExpect(t *testing.T, r *requester, c *Channel, id, decision, scope string) childEvent {
	t.Helper()
	if _, err := c.Answer(mustGet(t, c, id), decision, scope, "wisp approvals"); err != nil {
		t.Fatalf("answer: %v", err)
	}
	d := r.expect("decided")
	if d.ID != id || d.Approved != (decision == DecisionApprove) || d.By != "wisp approvals" {
		t.Errorf("decided %+v, want %s of %s by wisp approvals", d, decision, id)
	}
	r.finish()
	return d
}

// An edited request (outsideSandbox dropped, command changed) is listed as
// what it now says, and an answer to it is refused: the requester holds
// the bytes it wrote. The original bytes, put back, are answered.
func TestAnAnswerToAnEditedRequestIsRefused(t *testing.T) {
	dir := pendingDir(t)
	c := New(dir)
	r := startRequester(t, dir, childConfig{command: "brew upgrade", outside: true})
	id := r.filed.ID
	original := mustGet(t, c, id)
	plant(t, dir, requestName(id), editedRequest(t, original.Bytes), nil)

	edited := mustGet(t, c, id)
	if edited.Request.OutsideSandbox || edited.Request.Command != "ls" || edited.Binding == original.Binding {
		t.Fatalf("the face shows %+v; want the edited request, under a new binding", edited.Request)
	}
	if _, err := c.Answer(edited, DecisionApprove, ScopeAlways, "wisp-bar"); err != nil {
		t.Fatal(err)
	}
	if refused := r.expect("refused"); !strings.Contains(refused.Reason, ErrWrongBinding.Error()) {
		t.Errorf("refusal = %q, want %q", refused.Reason, ErrWrongBinding)
	}
	plant(t, dir, requestName(id), original.Bytes, nil)
	assertStillWaiting(t, c, id, original.Binding)
	answerAndExpect(t, r, c, id, DecisionDeny, ScopeOnce)
	assertEmpty(t, dir)
}

// editedRequest drops what makes a request an outside-sandbox one, and
// changes its command, keeping it a valid request.
func editedRequest(t *testing.T, data []byte) []byte {
	t.Helper()
	var req Request
	if err := json.Unmarshal(data, &req); err != nil {
		t.Fatal(err)
	}
	req.Kind, req.OutsideSandbox, req.Command = KindCommand, false, "ls"
	req.Scopes, req.Reasons = AllScopes, req.Reasons[1:]
	out, err := encode(req)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// An old answer replayed for a new request under the same id (only
// possible when ids repeat) is refused: the bytes differ, so the binding.
func TestAReplayedAnswerIsRefused(t *testing.T) {
	dir := pendingDir(t)
	c := New(dir)
	const id = "00112233aabbccdd"
	first := startRequester(t, dir, childConfig{command: "make install", outside: true, id: id})
	old, err := c.Answer(mustGet(t, c, id), DecisionApprove, ScopeOnce, "wisp-bar")
	if err != nil {
		t.Fatal(err)
	}
	first.expect("decided")
	first.finish()

	second := startRequester(t, dir, childConfig{command: "make install", outside: true, id: id})
	plant(t, dir, answerName(id), answerJSON(t, old), nil)
	if refused := second.expect("refused"); !strings.Contains(refused.Reason, ErrWrongBinding.Error()) {
		t.Errorf("refusal = %q, want %q", refused.Reason, ErrWrongBinding)
	}
	assertStillWaiting(t, c, id, second.filed.Binding)
	answerAndExpect(t, second, c, id, DecisionDeny, ScopeOnce)
	assertEmpty(t, dir)
}

// An answer that lies there before its request is filed is refused and
// removed as the request is filed.
func TestAnAnswerWrittenBeforeItsRequestIsRefused(t *testing.T) {
	dir := pendingDir(t)
	const id = "feedfacecafebeef"
	plant(t, dir, answerName(id), answerJSON(t, validAnswer(id, Binding([]byte("guess")))), nil)
	r := launchRequester(t, dir, childConfig{command: "rm -rf build", id: id})
	if refused := r.expect("refused"); !strings.Contains(refused.Reason, ErrEarlyAnswer.Error()) {
		t.Errorf("refusal = %q, want %q", refused.Reason, ErrEarlyAnswer)
	}
	r.filed = r.expect("filed")
	c := New(dir)
	assertStillWaiting(t, c, id, r.filed.Binding)
	answerAndExpect(t, r, c, id, DecisionApprove, ScopeSession)
	assertEmpty(t, dir)
}
