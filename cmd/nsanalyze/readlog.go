package main

import (
	"github.com/sirupsen/logrus"

	"github.com/nsanalyze/nsanalyze/parsers/bundle"
)

// logBundle logs what reading a bundle said: its warnings (grouped by file and line as
// the loader made them).
func logBundle(log *logrus.Logger, rec *bundle.Records) {
	for _, w := range rec.Warnings {
		log.Warn(w.String())
	}
}
