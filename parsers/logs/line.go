package logs

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// lineParser turns one physical line into an Entry. It holds the options that decide
// how year-less times are completed.
type lineParser struct {
	reference time.Time      // klog years are chosen so that times do not lie after reference+2 days
	location  *time.Location // zone of klog times
	// provisional: year-less times get the provisional year 2000+epoch (a wall clock
	// carried in UTC; ResolveYears places it in location);
	// the real year is chosen later for the whole file (see ResolveYears).
	provisional bool
	epoch       int
}

// provisionalYear is the year given to year-less times until ResolveYears runs. It is
// a leap year, so 29 February survives.
const provisionalYear = 2000

// parse fills e from line. It never fails: a line in no known format becomes a plain
// message. It reports whether the line carried a klog/JSON record header (a line
// without one may be a continuation of the previous record).
func (p *lineParser) parse(line []byte, e *Entry) (hasHeader bool) {
	line = bytes.TrimRight(line, "\r\n")
	if bytes.IndexByte(line, 0x1b) >= 0 {
		// colourised output (kubectl logs from a terminal, some collectors): the escape
		// sequences hide the klog header, and must never reach the reader's terminal
		line = stripANSI(line)
	}
	e.Text = capText(line)
	fr := p.stripFraming(line)
	content := fr.content
	if bytes.IndexByte(content, 0x1b) >= 0 {
		content = stripANSI(content) // escapes inside a docker json-file record
	}
	if fr.ident != "" {
		e.process = fr.ident
	}
	e.badTime = fr.badTime
	if !fr.time.IsZero() {
		e.Time, e.TimeSource, e.YearInferred = fr.time, fr.source, fr.yearless
	}
	if len(content) > 0 && content[0] == '{' {
		if p.parseJSON(content, e) {
			return true
		}
	}
	if p.parseKlog(content, e, fr.yearless) {
		return true
	}
	e.Message = string(bytes.TrimSpace(content))
	return false
}

func capText(b []byte) string {
	if len(b) > MaxTextBytes {
		return string(b[:MaxTextBytes]) + "…"
	}
	return string(b)
}

// framing is what a container runtime, collector or viewer put around a log record.
type framing struct {
	content  []byte
	time     time.Time
	source   string // "cri", "docker", "timestamp-prefix", "journald", ""
	yearless bool   // time carries no year (journald/syslog short format)
	partial  bool   // CRI "P": the record continues on the next line
	ident    string // journald/syslog identifier (process name)
	badTime  string // a time outside years 0001-9999 (UTC), ignored
}

// InRange reports whether t lies in years 0001-9999 (diag.InRange).
func InRange(t time.Time) bool { return diag.InRange(t) }

// stripFraming removes a container-runtime or collector prefix and returns the time it
// carried. Recognised: CRI (`<RFC3339Nano> stdout|stderr F|P <content>`), docker
// json-file (`{"log":...,"stream":...,"time":...}`), a bare RFC3339 timestamp prefix
// (kubectl logs --timestamps, must-gather), and journald/syslog `short`, `short-precise`,
// `short-iso` and `short-iso-precise` lines (`<time> <host> <ident>[<pid>]: <message>`).
func (p *lineParser) stripFraming(line []byte) framing {
	if len(line) > 20 && line[4] == '-' && line[7] == '-' && line[10] == 'T' && isDigit(line[0]) {
		sp := bytes.IndexByte(line, ' ')
		if sp > 0 {
			ts, err := time.Parse(time.RFC3339Nano, string(line[:sp]))
			if err != nil {
				ts, err = parseISOOffset(line[:sp])
			}
			var bad string
			if err == nil && !InRange(ts) {
				// a time JSON cannot carry (years outside 0001-9999 once in UTC): no time
				bad, ts = string(line[:sp]), time.Time{}
			}
			if err == nil {
				rest := line[sp+1:]
				if bytes.HasPrefix(rest, []byte("stdout ")) || bytes.HasPrefix(rest, []byte("stderr ")) {
					rest = rest[7:]
					partial := len(rest) > 0 && rest[0] == 'P'
					if sp2 := bytes.IndexByte(rest, ' '); sp2 >= 0 {
						rest = rest[sp2+1:]
					} else {
						rest = nil
					}
					return framing{content: rest, time: ts, source: "cri", partial: partial, badTime: bad}
				}
				if ident, msg, ok := syslogTag(rest); ok {
					return framing{content: msg, time: ts, source: "journald", ident: ident, badTime: bad}
				}
				return framing{content: rest, time: ts, source: "timestamp-prefix", badTime: bad}
			}
		}
	}
	if len(line) > 0 && line[0] == '{' && bytes.Contains(line, []byte(`"__REALTIME_TIMESTAMP":`)) {
		// journalctl -o json (sonobuoy's systemd-logs): the record is MESSAGE, the
		// process SYSLOG_IDENTIFIER, the time __REALTIME_TIMESTAMP (µs since the epoch)
		var d struct {
			Message  any    `json:"MESSAGE"`
			Ident    string `json:"SYSLOG_IDENTIFIER"`
			Realtime string `json:"__REALTIME_TIMESTAMP"`
		}
		if json.Unmarshal(line, &d) == nil {
			var ts time.Time
			if us, err := strconv.ParseInt(d.Realtime, 10, 64); err == nil && us >= 0 && us < maxJSONTs*1000 {
				ts = time.UnixMicro(us).UTC()
			}
			msg, _ := d.Message.(string) // journald writes binary messages as byte arrays
			return framing{content: []byte(msg), time: ts, source: "journald", ident: d.Ident}
		}
	}
	if bytes.HasPrefix(line, []byte(`{"log":`)) {
		var d struct {
			Log  string `json:"log"`
			Time string `json:"time"`
		}
		if json.Unmarshal(line, &d) == nil {
			ts, _ := time.Parse(time.RFC3339Nano, d.Time)
			var bad string
			if !ts.IsZero() && !InRange(ts) {
				bad, ts = d.Time, time.Time{}
			}
			return framing{content: []byte(strings.TrimRight(d.Log, "\n")), time: ts, source: "docker",
				partial: !strings.HasSuffix(d.Log, "\n"), badTime: bad}
		}
	}
	if t, rest, ok := p.syslogTime(line); ok {
		if ident, msg, ok := syslogTag(rest); ok {
			return framing{content: msg, time: t, source: "journald", yearless: true, ident: ident}
		}
	}
	return framing{content: line}
}

// parseISOOffset reads journald's short-iso time, whose zone has no colon
// (`2026-01-01T10:00:00+0100`, `2026-01-01T10:00:00.123456+0100`).
func parseISOOffset(b []byte) (time.Time, error) {
	s := string(b)
	if strings.IndexByte(s, '.') > 0 {
		return time.Parse("2006-01-02T15:04:05.999999999-0700", s)
	}
	return time.Parse("2006-01-02T15:04:05-0700", s)
}

var monthIndex = map[string]time.Month{"Jan": 1, "Feb": 2, "Mar": 3, "Apr": 4, "May": 5, "Jun": 6,
	"Jul": 7, "Aug": 8, "Sep": 9, "Oct": 10, "Nov": 11, "Dec": 12}

// syslogTime reads `Mmm dd hh:mm:ss[.uuuuuu] ` (journald short/short-precise, rsyslog).
func (p *lineParser) syslogTime(b []byte) (time.Time, []byte, bool) {
	if len(b) < 16 || b[3] != ' ' || b[6] != ' ' || b[9] != ':' || b[12] != ':' {
		return time.Time{}, nil, false
	}
	month, ok := monthIndex[string(b[:3])]
	if !ok {
		return time.Time{}, nil, false
	}
	day := 0
	for _, c := range b[4:6] {
		switch {
		case c == ' ':
		case isDigit(c):
			day = day*10 + int(c-'0')
		default:
			return time.Time{}, nil, false
		}
	}
	for _, i := range []int{7, 8, 10, 11, 13, 14} {
		if !isDigit(b[i]) {
			return time.Time{}, nil, false
		}
	}
	hh := int(b[7]-'0')*10 + int(b[8]-'0')
	mm := int(b[10]-'0')*10 + int(b[11]-'0')
	ss := int(b[13]-'0')*10 + int(b[14]-'0')
	i, nsec := 15, 0
	if i < len(b) && b[i] == '.' {
		j := i + 1
		for j < len(b) && isDigit(b[j]) {
			j++
		}
		f, _ := strconv.Atoi(string(b[i+1 : j]))
		nsec = f * int(math.Pow10(9-min(9, j-i-1)))
		i = j
	}
	if i >= len(b) || b[i] != ' ' || day < 1 || day > 31 || hh > 23 || mm > 59 || ss > 60 {
		return time.Time{}, nil, false
	}
	t, _ := p.completeYear(month, day, hh, mm, ss, nsec)
	return t, b[i+1:], true
}

// syslogTag reads `<host> <ident>[<pid>]: <message>` or `<host> <ident>: <message>`.
func syslogTag(b []byte) (ident string, msg []byte, ok bool) {
	sp := bytes.IndexByte(b, ' ')
	if sp <= 0 {
		return "", nil, false
	}
	rest := b[sp+1:]
	i := 0
	for i < len(rest) && isIdentByte(rest[i]) {
		i++
	}
	if i == 0 || i >= len(rest) {
		return "", nil, false
	}
	id := rest[:i]
	if rest[i] == '[' {
		j := i + 1
		for j < len(rest) && isDigit(rest[j]) {
			j++
		}
		if j == i+1 || j >= len(rest) || rest[j] != ']' {
			return "", nil, false
		}
		i = j + 1
	}
	if i >= len(rest) || rest[i] != ':' {
		return "", nil, false
	}
	if i+1 < len(rest) && rest[i+1] != ' ' {
		return "", nil, false
	}
	return string(id), rest[min(i+2, len(rest)):], true
}

func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '-' || c == '_' || c == '.' || c == '/' || c == '@'
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// parseKlog reads `Lmmdd hh:mm:ss.uuuuuu threadid file:line] msg`.
func (p *lineParser) parseKlog(b []byte, e *Entry, outerYearless bool) bool {
	// shortest header: "I0102 15:04:05.000000 1 f:1] " = 30 bytes
	if len(b) < 30 {
		return false
	}
	switch b[0] {
	case 'I', 'W', 'E', 'F':
	default:
		return false
	}
	if b[5] != ' ' || b[8] != ':' || b[11] != ':' || b[14] != '.' {
		return false
	}
	for _, i := range []int{1, 2, 3, 4, 6, 7, 9, 10, 12, 13} {
		if !isDigit(b[i]) {
			return false
		}
	}
	month, _ := strconv.Atoi(string(b[1:3]))
	day, _ := strconv.Atoi(string(b[3:5]))
	hh, _ := strconv.Atoi(string(b[6:8]))
	mm, _ := strconv.Atoi(string(b[9:11]))
	ss, _ := strconv.Atoi(string(b[12:14]))
	i := 15
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	frac := b[15:i]
	// thread id
	for i < len(b) && b[i] == ' ' {
		i++
	}
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	if i >= len(b) || b[i] != ' ' {
		return false
	}
	i++
	end := bytes.Index(b[i:], []byte("] "))
	if end < 0 {
		if bytes.HasSuffix(b, []byte("]")) {
			end = len(b) - 1 - i
		} else {
			return false
		}
	}
	caller := string(b[i : i+end])
	if !strings.Contains(caller, ":") {
		return false
	}
	if month < 1 || month > 12 || day < 1 || day > 31 || hh > 23 || mm > 59 || ss > 60 {
		return false
	}
	msg := b[min(i+end+2, len(b)):]
	e.Severity = string(b[0])
	e.Caller = caller
	if e.Time.IsZero() || outerYearless {
		// the klog clock is the process's own; a year-less journald clock is no stronger
		nsec := 0
		if len(frac) > 0 {
			f, _ := strconv.Atoi(string(frac))
			nsec = f * int(math.Pow10(9-len(frac)))
		}
		e.Time, e.YearInferred = p.completeYear(time.Month(month), day, hh, mm, ss, nsec)
		e.TimeSource = "klog"
	}
	parseMessage(msg, e)
	return true
}

// completeYear chooses the year of a klog time: the reference's year, or the year
// before when that would put the time more than two days after the reference (a log
// from December read with a January reference).
func (p *lineParser) completeYear(month time.Month, day, hh, mm, ss, nsec int) (time.Time, bool) {
	loc := p.location
	if loc == nil {
		loc = time.UTC
	}
	if p.provisional {
		// the wall clock, carried in UTC: it becomes an instant in loc only once the
		// year is known (ResolveYears), so that a time in a daylight-saving gap or
		// overlap of the provisional year keeps its hour in the real one
		return time.Date(provisionalYear+p.epoch, month, day, hh, mm, ss, nsec, time.UTC), true
	}
	ref := p.reference
	if ref.IsZero() {
		ref = time.Now()
	}
	t := time.Date(ref.Year(), month, day, hh, mm, ss, nsec, loc)
	if t.After(ref.Add(48 * time.Hour)) {
		t = time.Date(ref.Year()-1, month, day, hh, mm, ss, nsec, loc)
	}
	return t.UTC(), true
}

// parseMessage reads a klog message: structured (`"msg" k=v ...`) or printf text.
func parseMessage(msg []byte, e *Entry) {
	if len(msg) > 0 && msg[0] == '"' {
		if s, rest, ok := readQuoted(msg); ok {
			e.Message = s
			e.Fields = parseKV(rest)
			return
		}
	}
	e.Message = string(bytes.TrimSpace(msg))
}

// readQuoted reads a Go-quoted string at the start of b.
func readQuoted(b []byte) (string, []byte, bool) {
	esc := false
	for i := 1; i < len(b); i++ {
		switch {
		case esc:
			esc = false
		case b[i] == '\\':
			esc = true
		case b[i] == '"':
			s, err := strconv.Unquote(string(b[:i+1]))
			if err != nil {
				return string(b[1:i]), b[i+1:], true
			}
			return s, b[i+1:], true
		}
	}
	return "", b, false
}

// parseKV reads klog's ` key=value` pairs. Values are Go-quoted strings, bare tokens,
// or `<` (a multi-line block whose lines follow on the next physical lines).
func parseKV(b []byte) map[string]string {
	var m map[string]string
	for {
		b = bytes.TrimLeft(b, " ")
		eq := bytes.IndexByte(b, '=')
		if eq <= 0 {
			return m
		}
		key := string(b[:eq])
		if strings.ContainsAny(key, " \"") {
			return m
		}
		b = b[eq+1:]
		var val string
		switch {
		case len(b) > 0 && b[0] == '"':
			s, rest, ok := readQuoted(b)
			if !ok {
				val, b = string(b), nil
			} else {
				val, b = s, rest
			}
		default:
			sp := bytes.IndexByte(b, ' ')
			if sp < 0 {
				sp = len(b)
			}
			val, b = string(b[:sp]), b[sp:]
		}
		if m == nil {
			m = map[string]string{}
		}
		m[key] = val
	}
}

// parseJSON reads component-base JSON logging: {"ts":<ms>,"caller":"dir/file.go:N","msg":...,"err":...}.
func (p *lineParser) parseJSON(b []byte, e *Entry) bool {
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return false
	}
	msg, hasMsg := m["msg"].(string)
	if !hasMsg {
		return false
	}
	e.Message = msg
	// ts is milliseconds since the epoch; values outside years 1970-9999 are not times
	// (and would overflow, or fail to render in the JSON report).
	if ts, ok := m["ts"].(float64); ok && e.Time.IsZero() && ts >= 0 && ts < maxJSONTs {
		sec, frac := math.Modf(ts / 1000)
		e.Time = time.Unix(int64(sec), int64(frac*1e9)).UTC()
		e.TimeSource = "json"
	} else if ts, ok := m["time"].(string); ok && e.Time.IsZero() {
		// logrus / zap JSON ({"level":..,"msg":..,"time":"<RFC3339>"}): sonobuoy, velero, operators
		if t, err := time.Parse(time.RFC3339Nano, ts); err == nil && InRange(t) {
			e.Time = t.UTC()
			e.TimeSource = "json"
		}
	}
	if c, ok := m["caller"].(string); ok {
		if i := strings.LastIndexByte(c, '/'); i >= 0 {
			c = c[i+1:]
		}
		e.Caller = c
	}
	if _, ok := m["v"]; ok {
		e.Severity = "I"
	} else {
		e.Severity = "E"
	}
	for k, v := range m {
		switch k {
		case "ts", "msg", "caller", "v":
			continue
		}
		if e.Fields == nil {
			e.Fields = map[string]string{}
		}
		switch x := v.(type) {
		case string:
			e.Fields[k] = x
		default:
			enc, _ := json.Marshal(x)
			e.Fields[k] = string(enc)
		}
	}
	return true
}

// maxJSONTs is 10000-01-01T00:00:00Z in milliseconds.
const maxJSONTs = 253402300800000

// stripANSI removes terminal escape sequences: CSI (ESC [ ... final byte), OSC
// (ESC ] ... BEL or ESC \) and two-byte escapes.
func stripANSI(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != 0x1b {
			out = append(out, b[i])
			continue
		}
		if i+1 >= len(b) {
			break
		}
		switch b[i+1] {
		case '[':
			j := i + 2
			for j < len(b) && b[j] >= 0x20 && b[j] <= 0x3f {
				j++ // parameters and intermediates
			}
			if j < len(b) && b[j] >= 0x40 && b[j] <= 0x7e {
				j++ // final byte
			}
			i = j - 1
		case ']':
			j := i + 2
			for j < len(b) && b[j] != 0x07 && !(b[j] == 0x1b && j+1 < len(b) && b[j+1] == '\\') {
				j++
			}
			if j < len(b) && b[j] == 0x1b {
				j++
			}
			i = j
		default:
			i++
		}
	}
	return out
}
