package segment

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Reply codes of the reference dialect (the table the reference client and
// server share; seed 003's own flag table differs, see docs/protocol.md).
const (
	CodeNoUser          byte = 0 // user does not exist / invitee not online
	CodeOK              byte = 1 // OK / invitation accepted
	CodeRefused         byte = 2 // invitation refused
	CodeWrongPassword   byte = 3 // wrong password
	CodeError           byte = 4 // an error occurred; also Refuse to a kicked session
	CodeAlreadyLoggedIn byte = 5 // Refuse to the session that kicked an older one
	CodeBusy            byte = 6 // invitee busy
)

var codeNames = [...]string{"no such user", "OK", "refused", "wrong password", "error", "already logged in", "busy"}

// CodeName names a reply code as the reference dialect reads it.
func CodeName(c byte) string {
	if int(c) < len(codeNames) {
		return codeNames[c]
	}
	return "unknown"
}

// String describes s for people: the type and its decoded payload, as used in
// transcript comments. It does not mask passwords; see Describe.
func (s Segment) String() string { return s.Describe(false) }

// Describe is String with the password of a Passwd segment masked unless
// showPasswords is set.
func (s Segment) Describe(showPasswords bool) string {
	var b strings.Builder
	b.WriteString(s.Type.String())
	switch s.Type {
	case Info, SyncBegin, NewOnline, SendInvit, RecvInvit, NewOffline:
		b.WriteString(" " + strconv.Quote(string(s.Payload())))
	case Passwd:
		if showPasswords {
			b.WriteString(" " + strconv.Quote(string(s.Payload())))
		} else {
			b.WriteString(" (masked)")
		}
	case InfoResp, PasswdResp, Refuse, InvitResponse:
		if c, ok := s.Code(); ok {
			fmt.Fprintf(&b, " %d (%s)", c, CodeName(c))
		}
	case Board:
		if cs, err := s.Board(); err == nil {
			for i := 0; i < 6; i += 2 {
				fmt.Fprintf(&b, " %v-%v", cs[i], cs[i+1])
			}
		} else {
			b.WriteString(" (malformed)")
		}
	case SingleCoord:
		if c, err := s.Single(); err == nil {
			fmt.Fprintf(&b, " %v", c)
		} else {
			b.WriteString(" (malformed)")
		}
	case DoubleCoord:
		if h, t, err := s.Double(); err == nil {
			fmt.Fprintf(&b, " %v-%v", h, t)
		} else {
			b.WriteString(" (malformed)")
		}
	default:
		s.describeExtended(&b)
	}
	return b.String()
}

// describeExtended describes one segment of an extended type on its own: a
// fragment by its size, a last segment by its decoded body when it decodes
// alone (a whole message of 0..29 bytes).
func (s *Segment) describeExtended(b *strings.Builder) {
	if !s.Type.KnownExtended() {
		return
	}
	if s.Type.Fragment() {
		fmt.Fprintf(b, " (%d bytes, more follows)", s.n)
		return
	}
	m, err := DecodeMessage(s.Type, s.Payload())
	if err != nil {
		fmt.Fprintf(b, " (%d bytes: the end of a longer message, or malformed)", s.n)
		return
	}
	describeFields(b, m)
}

// DescribeMessage describes a whole message for people, as transcript
// comments show it: the type's name and the decoded fields
// (`Join table=7 seat=255 code=""`), or why the body does not decode.
func DescribeMessage(t Type, body []byte) string {
	var b strings.Builder
	b.WriteString(t.String())
	m, err := DecodeMessage(t, body)
	if err != nil {
		fmt.Fprintf(&b, " (malformed, %d bytes: %v)", len(body), err)
		return b.String()
	}
	describeFields(&b, m)
	return b.String()
}

// describeFields writes " name=value" for each field of a typed body.
func describeFields(b *strings.Builder, m Message) {
	if _, empty := m.(EmptyMsg); empty {
		return
	}
	v := reflect.New(reflect.TypeOf(m)).Elem() // addressable, so arrays slice
	v.Set(reflect.ValueOf(m))
	writeFields(b, v, " ")
}

func writeFields(b *strings.Builder, v reflect.Value, sep string) {
	t := v.Type()
	for i := range t.NumField() {
		name, f := t.Field(i).Name, v.Field(i)
		if name == "Len" && i+1 < t.NumField() && t.Field(i+1).Name == "Arg" {
			arg := v.Field(i + 1)
			n := min(int(f.Uint()), arg.Len())
			b.WriteString(sep + "arg=")
			writeValue(b, arg.Slice(0, n))
			sep = " "
			continue
		}
		if name == "Arg" || f.Kind() == reflect.Pointer && f.IsNil() {
			continue // a part the body does not carry says nothing
		}
		if name == strings.ToUpper(name) {
			name = strings.ToLower(name) // ID
		}
		b.WriteString(sep + strings.ToLower(name[:1]) + name[1:] + "=")
		writeValue(b, f)
		sep = " "
	}
}

func writeValue(b *strings.Builder, v reflect.Value) {
	if v.Type() == reflect.TypeFor[Type]() {
		b.WriteString(Type(v.Uint()).String())
		return
	}
	switch v.Kind() {
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Array: // h32: enough of it to tell hashes apart
		fmt.Fprintf(b, "%02x%02x%02x%02x…", v.Index(0).Uint(), v.Index(1).Uint(), v.Index(2).Uint(), v.Index(3).Uint())
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 && v.Len() > 16 {
			fmt.Fprintf(b, "[%d bytes]", v.Len())
			return
		}
		b.WriteString("[")
		for i := range v.Len() {
			if i > 0 {
				b.WriteString(" ")
			}
			writeValue(b, v.Index(i))
		}
		b.WriteString("]")
	case reflect.Pointer:
		writeValue(b, v.Elem())
	case reflect.Struct:
		b.WriteString("{")
		writeFields(b, v, "")
		b.WriteString("}")
	}
}
