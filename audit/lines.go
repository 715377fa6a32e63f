package audit

import (
	"bufio"
	"errors"
	"io"
)

// maxLine bounds one line as read back; a longer one is skipped as
// malformed rather than held in memory. A variable so tests can lower it.
var maxLine = 16 << 20

var errTooLong = errors.New("line too long to be an audit record")

// lineScanner reads whole lines from a file that may still be growing: at
// the end of the data it keeps an unfinished line and completes it on a
// later call, once the writer's bytes have arrived.
type lineScanner struct {
	r       *bufio.Reader
	partial []byte
	tooLong bool
	lineNo  int // of the line last returned
}

func newLineScanner(r io.Reader) *lineScanner {
	return &lineScanner{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next complete line without its newline, in a fresh
// slice. At the end of the data it returns io.EOF and keeps the fragment.
// A line over maxLine comes back as errTooLong, and scanning goes on.
func (s *lineScanner) next() ([]byte, error) {
	for {
		chunk, err := s.r.ReadSlice('\n')
		s.add(chunk)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return s.take()
	}
}

func (s *lineScanner) add(chunk []byte) {
	if s.tooLong {
		return
	}
	if len(s.partial)+len(chunk) > maxLine {
		s.tooLong, s.partial = true, nil
		return
	}
	s.partial = append(s.partial, chunk...)
}

func (s *lineScanner) take() ([]byte, error) {
	s.lineNo++
	line, tooLong := s.partial, s.tooLong
	s.partial, s.tooLong = nil, false
	if tooLong {
		return nil, errTooLong
	}
	return line[:len(line)-1], nil
}

// rest returns the unfinished last line, if any, and forgets it.
func (s *lineScanner) rest() ([]byte, error) {
	if len(s.partial) == 0 && !s.tooLong {
		return nil, io.EOF
	}
	s.partial = append(s.partial, '\n')
	return s.take()
}
