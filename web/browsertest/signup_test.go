package browsertest

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestSignUpInTheBrowser: a person types a new name and a password and
// presses Sign up; they are in the lobby under that name. Another who
// picks a name like it is told it is taken and stays at the form.
func TestSignUpInTheBrowser(t *testing.T) {
	url, _ := startDaemon(t)
	b := newBrowser(t)
	ada, eve := b.page("Ada"), b.page("Eve")
	ada.do("open the page", chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#login-form")))
	ada.fill("#name", "Web_Ada")
	ada.fill("#password", "web-password")
	ada.click("#signup-btn")
	ada.do("see the lobby", chromedp.WaitVisible(chromedp.CSS("#lobby")))
	if me := eval[string](ada, `document.querySelector('#me').textContent`); me != "Web_Ada" {
		t.Errorf("signed in as %q", me)
	}

	eve.do("open the page", chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#login-form")))
	eve.fill("#name", "web-ada")
	eve.fill("#password", "web-password")
	eve.click("#signup-btn")
	eve.wait("the name is taken", `document.querySelector('#login-error').textContent.includes('taken')`)
	if s := eval[string](eve, `document.body.dataset.screen`); s != "login" {
		t.Errorf("after a refused sign-up the page shows %q", s)
	}
	ada.wait("Ada still online alone", `!document.querySelector('#users [data-user="web-ada"]')`)
}
