// Package glibc lets the probe start on glibc 2.17 and later (x86-64 and
// arm64) although it is built against a newer one: compat.h, included in
// every C file by make probe, picks the oldest version of each function,
// and start.c replaces the one call that the C start-up files make to a
// new version. Imported for that side effect alone; a plain go build works
// as before and needs the glibc it was built with.
package glibc

// #cgo CFLAGS: -O2
import "C"
