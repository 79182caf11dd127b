package segment

// Sign-up (feature bit FeatureSignUp): a person makes an account from a
// client, before logging in, instead of asking an operator.
const (
	// FeatureSignUp: SignUp, answered with Ack(SignUp) or an Error whose
	// code says why not (ErrCodeNameTaken .. ErrCodeUnavailable).
	FeatureSignUp uint32 = 256

	// SignUp 0x3E C→S, cap 64: name str, password str. With FeatureSignUp
	// only, after Hello and before logging in (a session that gave a user
	// name starts over). Answered with Ack(SignUp) once the account exists
	// (the session is still not logged in: it logs in as usual, with Info
	// and Passwd), or with an Error: NameTaken, BadName, BadPassword,
	// SignUpClosed, RateLimited or Unavailable.
	//   3e 00 0f 03 41 64 61 0a 73 65 63 72 65 74 2d 70 77 31
	//                                    SignUp "Ada" password "secret-pw1"
	//   3f 00 01 3e                      Ack SignUp
	//   38 00 03 3e 15 00                Error SignUp NameTaken ""
	SignUp Type = 0x3E
)

// SignUpMsg is SignUp's body.
type SignUpMsg struct {
	Name     string
	Password string
}

// Type is SignUp.
func (SignUpMsg) Type() Type { return SignUp }

// Encode appends the body.
func (m SignUpMsg) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, SignUp)
	w.str(m.Name)
	w.str(m.Password)
	return w.done()
}

// Append appends the body.
func (m SignUpMsg) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeSignUpMsg reads a SignUp body.
func DecodeSignUpMsg(body []byte) (m SignUpMsg, err error) {
	r := reader(SignUp, body)
	m.Name = r.Str()
	m.Password = r.Str()
	return m, r.Done()
}
