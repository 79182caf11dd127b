package aeroplane

import (
	"strconv"

	"github.com/bomber-game/bomber/rules"
)

// Option keys; values are booleans ("on"/"off", "true"/"false", "1"/"0").
const (
	OptSixBias       = "six-bias"       // on: 37.5% sixes while no piece is in play (seed 000)
	OptStack         = "stack"          // on: own pieces landing together stack and move as one
	OptExactFinish   = "exact-finish"   // on: the centre needs an exact roll; the excess bounces back
	OptLaunchOnFive  = "launch-on-5"    // on: a 5 launches a piece as well as a 6
	OptFlightCapture = "flight-capture" // on: a flight captures pieces on the bridge space it passes over
)

// optionKeys lists every option in the order records write them.
func optionKeys() [5]string {
	return [...]string{OptSixBias, OptStack, OptExactFinish, OptLaunchOnFive, OptFlightCapture}
}

// optionSpecs describes every option for Spec.Options, in record order.
func optionSpecs() []rules.OptionSpec {
	d := DefaultSettings().values()
	docs := [...]string{
		"37.5% sixes while the roller has no piece in play",
		"own pieces landing together stack and move as one",
		"the centre needs an exact roll; the excess bounces back",
		"a 5 launches a piece as well as a 6",
		"a flight captures pieces on the bridge space it passes over",
	}
	out := make([]rules.OptionSpec, 0, len(docs))
	for i, k := range optionKeys() {
		out = append(out, rules.OptionSpec{Key: k, Doc: docs[i], Kind: rules.OptionBool, Default: strconv.FormatBool(d[i])})
	}
	return out
}

// Settings are the rule options of one game.
type Settings struct {
	SixBias       bool // seed 000's bias toward 6 while the roller has no piece in play
	Stack         bool // stacking of own pieces
	ExactFinish   bool // exact roll to finish, with bounce-back
	LaunchOnFive  bool // launch on 5 or 6
	FlightCapture bool // capture on the opposite colour's bridge when flying over it
}

// DefaultSettings are seed 000's rules: the six bias on, every house rule off.
func DefaultSettings() Settings { return Settings{SixBias: true} }

// ParseSettings reads options, starting from DefaultSettings.
func ParseSettings(o rules.Options) (Settings, error) {
	keys := optionKeys()
	if err := o.Check(keys[:]...); err != nil {
		return Settings{}, err
	}
	s := DefaultSettings()
	for _, f := range []struct {
		key string
		dst *bool
	}{
		{OptSixBias, &s.SixBias},
		{OptStack, &s.Stack},
		{OptExactFinish, &s.ExactFinish},
		{OptLaunchOnFive, &s.LaunchOnFive},
		{OptFlightCapture, &s.FlightCapture},
	} {
		v, err := o.Bool(f.key, *f.dst)
		if err != nil {
			return Settings{}, err
		}
		*f.dst = v
	}
	return s, nil
}

// Options writes s back as options with every key present.
func (s Settings) Options() rules.Options {
	o := rules.Options{}
	keys := optionKeys()
	for i, v := range s.values() {
		o[keys[i]] = onOff(v)
	}
	return o
}

func (s Settings) values() [5]bool {
	return [...]bool{s.SixBias, s.Stack, s.ExactFinish, s.LaunchOnFive, s.FlightCapture}
}

// launches reports whether a roll of face lets a piece leave the camp.
func (s Settings) launches(face int) bool {
	return face == 6 || (face == 5 && s.LaunchOnFive)
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
