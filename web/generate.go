package web

//go:generate go run ./build
