module github.com/bomber-game/bomber

go 1.26
