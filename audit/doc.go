// Package audit owns wisp's audit log, logs/audit.jsonl in wisp's home: the
// events it records (as Go types), the Logger that appends them, rotation,
// and the reader behind `wisp logs`.
//
// Each line is one JSON object: time (RFC3339Nano, UTC), event, session,
// pid, then the event's own fields. A line is built whole and appended with
// one write(2) on a file opened O_APPEND, so concurrent wisp processes never
// interleave or lose a line. The schema only grows: fields are added, never
// renamed or given a new meaning, so old lines stay readable.
//
// audit imports only config; every other wisp package may import it.
// Loggers are passed in, never global.
package audit
