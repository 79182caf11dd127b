//go:build !linux

package main

import "syscall"

func bindNoPort(_, _ string, _ syscall.RawConn) error { return nil }
