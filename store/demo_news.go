package store

import (
	"context"
	"database/sql"
	"time"

	"palaro"
)

// demoArticles are the demo news, published in the days before the seed.
var demoArticles = []palaro.Article{
	{Slug: "mlbb-manila-showdown-booths", Title: "Scratch, quiz and win at the MLBB Manila Showdown",
		Summary:    "Booth games, a scratch card with 260 prizes and two money quizzes: here is how to earn leaderboard points at the venue.",
		EventCodes: []string{"mlbb-manila-showdown"}, Author: "Palaro team",
		Body: "Register once at **/register** with your name and mobile number, then scan the QR code at any partner booth with your phone's camera.\n\n" +
			"## What you can play\n\n- **Partner booth**: 10 points for a visit.\n- **Scratch & Win**: three in a row wins a gaming headset, a team jersey or a sticker pack.\n" +
			"- **Two quizzes** on saving and investing: up to 45 points.\n\nPrizes are handed over at the booth: show the activity log on your phone."},
	{Slug: "valorant-night-market-guide", Title: "Valorant Night Market: your guide to BGC's open tournament",
		Summary:    "Schedule, venue tips and the activities running between matches.",
		EventCodes: []string{"valorant-night-market-bgc"}, Author: "Palaro team",
		Body: "Doors open an hour before the first match. Bring your ticket QR code: it works offline once opened.\n\n" +
			"Between matches, visit the partner booth and try the *investment power quiz*: ten questions, thirty points."},
	{Slug: "how-the-leaderboard-works", Title: "How the Palaro leaderboard works",
		Summary:    "Points from booths, scratch cards and quizzes add up per event and overall. Ties share a rank.",
		EventCodes: []string{"tekken-tuesdays-cubao"}, Author: "Palaro team",
		Body: "Every activity gives its points once per participant. The leaderboard shows the top 50, overall and per event, " +
			"and always your own rank, refreshed every 30 seconds.\n\n> Tip: quizzes can be taken from home after the event too, while their window is open."},
}

// demoPartnerHome and demoPartnerPromo are the partner bank's demo pages.
var demoPartnerHome = palaro.PartnerPage{BankName: "PNK Bank", PrimaryColor: "#0b5d3b", AccentColor: "#f2b705",
	HeroTitle: "Level up your savings", HeroText: "PNK Bank is the official savings partner of Palaro events. Play our quizzes, learn the basics of investing and earn leaderboard points.",
	Blocks: []palaro.PartnerBlock{
		{Title: "What kind of investor are you?", Text: "Seven questions, four personas, and next steps that fit you.", LinkText: "Take the persona quiz", LinkURL: "/quiz/investment-persona/mlbb-manila-showdown"},
		{Title: "Test your investment power", Text: "Ten questions on emergency funds, inflation, MP2, UITFs and spotting scams.", LinkText: "Take the power quiz", LinkURL: "/quiz/investment-power/mlbb-manila-showdown"},
		{Title: "Gamer savings promo", Text: "Open a savings account at the booth and get a free sticker pack.", LinkText: "See the promo", LinkURL: "/pnk/promo"},
	}}

var demoPartnerPromo = palaro.PartnerPage{BankName: "PNK Bank", PrimaryColor: "#0b5d3b", AccentColor: "#f2b705",
	HeroTitle: "Gamer savings promo", HeroText: "Open a PNK savings account at any Palaro partner booth with one valid ID and an initial deposit of ₱100.",
	Blocks: []palaro.PartnerBlock{
		{Title: "Free sticker pack", Text: "For every new account opened at the booth, while stocks last."},
		{Title: "Bonus points", Text: "Show your new account at the booth to join the partner booth activity and earn 10 leaderboard points.", LinkText: "See activities", LinkURL: "/activities"},
	}}

// seedDemoNews adds the demo articles and partner pages.
func seedDemoNews(ctx context.Context, tx *sql.Tx, now time.Time) error {
	for i, a := range demoArticles {
		a.PublishedAt = now.Add(-time.Duration(i+1) * 26 * time.Hour).Truncate(time.Hour)
		if err := saveArticle(ctx, tx, a, now); err != nil {
			return err
		}
	}
	if err := savePartnerPage(ctx, tx, "home", demoPartnerHome, now); err != nil {
		return err
	}
	return savePartnerPage(ctx, tx, "promo", demoPartnerPromo, now)
}
