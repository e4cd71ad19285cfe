package handlers

import (
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"palaro/views"
)

// textPage renders a page of static text.
func (s *Server) textPage(c *echo.Context, title, description, heading string, body templ.Component) error {
	return render(c, http.StatusOK, views.TextPage(s.page(c, title, description), heading, body))
}

func (s *Server) aboutPage(c *echo.Context) error {
	return s.textPage(c, "About Us · Palaro", "Palaro is an event discovery and ticketing app for eSports, concerts and conventions in the Philippines.", "About Us", views.AboutText())
}

func (s *Server) contactsPage(c *echo.Context) error {
	return s.textPage(c, "Contact Us · Palaro", "Contact Palaro support about events, tickets and payments.", "Contact Us", views.ContactText(s.config.SupportEmail))
}

func (s *Server) privacyPage(c *echo.Context) error {
	return s.textPage(c, "Privacy Policy · Palaro", "How Palaro collects and uses personal data.", "Privacy Policy", views.PrivacyText(s.config.SupportEmail))
}

func (s *Server) termsPage(c *echo.Context) error {
	return s.textPage(c, "Terms & Conditions · Palaro", "The terms of use of Palaro's ticketing service.", "Terms & Conditions", views.TermsText(s.config.SupportEmail))
}

func (s *Server) cookiesPage(c *echo.Context) error {
	return s.textPage(c, "Cookies · Palaro", "The cookies Palaro uses and your consent.", "Cookies", views.CookieText())
}

// faqItems are the frequently asked questions.
var faqItems = []views.FAQItem{
	faq("How do I buy a ticket?", "Open an event, choose a ticket type and press Buy. Fill in the form, then pay with QR Ph (any banking or e-wallet app that scans QR Ph, such as GCash or Maya) or with a card. Free tickets are issued at once."),
	faq("Where are my tickets?", "Right after payment you see your order with a link to each ticket, and we send the links to your e-mail. Open a ticket on your phone to show its QR code at the gate; it stays available offline once opened."),
	faq("How long is my order held?", "A pending order holds its tickets for 15 minutes. If the payment is not completed in that time the tickets go back on sale."),
	faq("Can I move a ticket to someone else?", "Yes. Open the ticket and choose Change e-mail. The ticket moves once the new address confirms it."),
	faq("Can I buy add-ons after I bought my ticket?", "Yes. Open the ticket and choose Buy add-ons: shirts, meal vouchers and parking passes, when the event offers them."),
	faq("What if the event is cancelled or postponed?", "If the event is cancelled you get a full refund to your original payment method. If it is postponed your ticket stays valid for the new date, or you can ask for a refund within 14 days."),
	faq("What are points and the leaderboard?", "Booth games, scratch cards and quizzes at events earn you points. The leaderboard ranks participants per event and overall."),
	faq("I run events. Can I sell tickets on Palaro?", "Yes. Register as an organizer and our team will help you set up your first event."),
}

func (s *Server) faqPage(c *echo.Context) error {
	return s.textPage(c, "FAQ · Palaro", "Answers to common questions about buying tickets, payments and events on Palaro.", "Frequently asked questions", views.FAQText(faqItems))
}

func faq(question, answer string) views.FAQItem {
	return views.FAQItem{Question: question, Answer: answer}
}
