package main

import (
	"bufio"
	"bytes"
	"io"

	"github.com/sirupsen/logrus"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/render"
)

// errWriter remembers the first write error of w and writes nothing after it.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	e.err = err
	return n, err
}

// writeReport writes the report to stdout and returns the error of a write that failed
// or was short: a report that could not be written (a full disk, a closed stdout) is a
// failure of the run (exitWrite), whatever the diagnosis and --fail-on say. JSON is
// streamed (one namespace at a time, nothing built whole); the other formats are
// rendered into memory first, so a rendering error never empties the output: the
// report is then written as text, with the error on stderr.
func writeReport(stdout io.Writer, log *logrus.Logger, report *findings.Report, format string, o render.Options) error {
	ew := &errWriter{w: stdout}
	if format == "json" {
		bw := bufio.NewWriterSize(ew, 64<<10)
		err := render.JSON(bw, report)
		if err == nil {
			err = bw.Flush()
		}
		if ew.err != nil {
			return ew.err
		}
		return err
	}
	var out bytes.Buffer
	if err := render.RenderWith(&out, report, format, o); err != nil {
		log.Errorf("could not write the %s report (%v); writing it as text instead", format, err)
		out.Reset()
		if err := render.RenderWith(&out, report, "text", render.Options{Width: o.Width}); err != nil {
			log.Error(err)
		}
	}
	_, err := ew.Write(out.Bytes())
	return err
}
