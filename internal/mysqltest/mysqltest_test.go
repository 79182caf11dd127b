package mysqltest

import (
	"os"
	"slices"
	"testing"
)

func TestMain(m *testing.M) { os.Exit(CheckMain(m)) }

// TestLeftoversSeesAnUndroppedDatabase: a database made with this run's
// name and not dropped is reported; once dropped it is not.
func TestLeftoversSeesAnUndroppedDatabase(t *testing.T) {
	db := Server(t)
	name := Name("leak")
	if _, err := db.Exec("CREATE DATABASE `" + name + "`"); err != nil {
		t.Fatal(err)
	}
	left, err := Leftovers()
	if err != nil || !slices.Contains(left, name) {
		t.Errorf("Leftovers = %v, %v; want it to contain %s", left, err, name)
	}
	if _, err := db.Exec("DROP DATABASE `" + name + "`"); err != nil {
		t.Fatal(err)
	}
	if left, err := Leftovers(); err != nil || slices.Contains(left, name) {
		t.Errorf("Leftovers after the drop = %v, %v", left, err)
	}
}

// TestNewDatabaseIsDropped: NewDatabase's cleanup drops the database.
func TestNewDatabaseIsDropped(t *testing.T) {
	var name string
	t.Run("user", func(t *testing.T) { name, _ = NewDatabase(t, "drop") })
	if left, err := Leftovers(); err != nil || slices.Contains(left, name) {
		t.Errorf("after the test: Leftovers = %v, %v; %s should be gone", left, err, name)
	}
}
