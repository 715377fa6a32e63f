package model_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/model"
	"github.com/wisp-sh/wisp/internal/model/modeltest"
)

// benchTurn is a long answer: 200 text pieces, then two tool calls of 20
// argument pieces each, 245 chunks in all.
func benchTurn() modeltest.Turn {
	t := modeltest.Turn{Text: make([]string, 200)}
	for i := range t.Text {
		t.Text[i] = "word "
	}
	for _, id := range []string{"call_a", "call_b"} {
		args := []string{`{"command":"`}
		for range 18 {
			args = append(args, "x")
		}
		args = append(args, `"}`)
		t.ToolCalls = append(t.ToolCalls, modeltest.ToolCallScript{ID: id, Name: "run_command", Arguments: args})
	}
	return t
}

func benchServer(b *testing.B) *modeltest.Server {
	turns := make([]modeltest.Turn, b.N)
	for i := range turns {
		turns[i] = benchTurn()
	}
	return modeltest.NewServer(b, turns...)
}

// benchClient is a client of a server with b.N long answers, the timer
// reset.
func benchClient(b *testing.B) *model.Client {
	c, err := model.New(configFor(benchServer(b)), noEnv)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	return c
}

// BenchmarkStream is one whole answer through Client.Stream.
func BenchmarkStream(b *testing.B) {
	c := benchClient(b)
	for range b.N {
		msg, err := c.Stream(b.Context(), ask("hi"), []model.Tool{runCommand}, func(string) {})
		if err != nil || len(msg.ToolCalls) != 2 {
			b.Fatal(msg, err)
		}
	}
}

// BenchmarkStreamBaseline reads the same answer with net/http, a line
// scanner and encoding/json, the least any client must do: the ratio of
// BenchmarkStream to it is the cost of the SDK and of wisp's assembly.
func BenchmarkStreamBaseline(b *testing.B) {
	srv := benchServer(b)
	body := `{"model":"granite4.1:8b","stream":true,"messages":[{"role":"user","content":"hi"}]}`
	b.ResetTimer()
	for range b.N {
		res, err := http.Post(srv.URL()+"/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		text := readStreamPlainly(b, res)
		if len(text) != 1000 {
			b.Fatalf("read %d bytes of text", len(text))
		}
	}
}

func readStreamPlainly(b *testing.B, res *http.Response) []byte {
	defer res.Body.Close()
	var text []byte
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		data, ok := bytes.CutPrefix(sc.Bytes(), []byte("data: "))
		if !ok || string(data) == "[DONE]" {
			continue
		}
		var c struct {
			Choices []struct {
				Delta struct {
					Content   string            `json:"content"`
					ToolCalls []json.RawMessage `json:"tool_calls"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal(data, &c); err != nil {
			b.Fatal(err)
		}
		for _, ch := range c.Choices {
			text = append(text, ch.Delta.Content...)
		}
	}
	return text
}

// BenchmarkTurn is BenchmarkStream through Client.Turn, with its checks.
func BenchmarkTurn(b *testing.B) {
	c := benchClient(b)
	for range b.N {
		res, err := c.Turn(b.Context(), model.Request{Messages: ask("hi"), Tools: []model.Tool{runCommand},
			OnDelta: func(model.Delta) {}})
		if err != nil || len(res.Message.ToolCalls) != 2 {
			b.Fatal(res, err)
		}
	}
}
