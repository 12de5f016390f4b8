package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"io"
	"time"
)

// File is one entry of a release archive.
type File struct {
	Name string
	Mode int64
	Data []byte
}

// writeTarGz writes files, in order, as a gzip-compressed tar: regular files owned by
// root, dated mtime, with no host names or user names (the same bytes on every machine).
func writeTarGz(w io.Writer, files []File, mtime time.Time) error {
	gz, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	gz.ModTime = mtime
	tw := tar.NewWriter(gz)
	for _, f := range files {
		h := &tar.Header{Typeflag: tar.TypeReg, Name: f.Name, Mode: f.Mode, Size: int64(len(f.Data)),
			ModTime: mtime, Uname: "root", Gname: "root", Format: tar.FormatUSTAR}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if _, err := tw.Write(f.Data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

// writeZip writes files, in order, as a zip (deflate), dated mtime.
func writeZip(w io.Writer, files []File, mtime time.Time) error {
	zw := zip.NewWriter(w)
	for _, f := range files {
		h := &zip.FileHeader{Name: f.Name, Method: zip.Deflate, Modified: mtime}
		h.SetMode(0o644)
		if f.Mode&0o111 != 0 {
			h.SetMode(0o755)
		}
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := fw.Write(f.Data); err != nil {
			return err
		}
	}
	return zw.Close()
}
