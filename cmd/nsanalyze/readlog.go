package main

import (
	"github.com/sirupsen/logrus"

	"github.com/nsanalyze/nsanalyze/parsers/bundle"
)

// logBundle logs what reading a bundle said: its warnings (each with its file and
// line), and at debug level how every file of it was read (layout, parser, objects and
// lines) or why nothing was read from it, from the loader's records.
func logBundle(log *logrus.Logger, rec *bundle.Records) {
	for _, w := range rec.Warnings {
		log.Warn(w.String())
	}
	if !log.IsLevelEnabled(logrus.DebugLevel) {
		return
	}
	nothing := 0
	for _, r := range rec.Reads {
		if r.Nothing() != "" {
			nothing++
		}
		log.Debug(r.String())
	}
	log.WithFields(logrus.Fields{"files": len(rec.Reads), "nothingRead": nothing}).Debug("files of the bundle")
}
