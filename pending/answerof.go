package pending

// AnswerOf returns the answer bound to p's bytes that lies beside it, read
// as every face reads a file (no link, the owner's, bounded), so that a face
// can say what a request was answered before its requester took it.
func (c *Channel) AnswerOf(p Pending) (Answer, bool) {
	data, err := readFile(c.answerPath(p.Request.ID))
	if err != nil {
		return Answer{}, false
	}
	a, err := ParseAnswer(data)
	if err != nil || a.ID != p.Request.ID || a.Binding != p.Binding {
		return Answer{}, false
	}
	return a, true
}
