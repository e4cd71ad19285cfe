package store

import "palaro"

type demoTicket struct {
	suffix, name, description string
	price                     palaro.Money
	discount                  float64
	max, capacity, sold       int
	promo, survey, seated     bool
	disclaimer                string
	qrOnly                    bool
}

func (t demoTicket) paymentTypes() []string {
	if t.qrOnly {
		return []string{palaro.PaymentQR}
	}
	return []string{palaro.PaymentQR, palaro.PaymentCard}
}

type demoEvent struct {
	code, name, summary, description string
	image                            string
	fromNow                          bool    // hour counts from the current hour, not from midnight
	day                              int     // days from today (Manila)
	hour, hours                      float64 // local start hour and duration
	venue, organizer                 int64
	popularity                       int
	status                           string
	tags                             []string
	links                            []palaro.Link
	tickets                          []demoTicket
	addOns                           []palaro.AddOn
	required                         []string
	surveyQuestion                   string
	surveyAnswers                    []string
}

var demoOrganizers = []palaro.Organizer{
	{ID: 1, Name: "Palaro Events Co.", Email: "events@palaro.ph", URL: "https://palaro.ph"},
	{ID: 2, Name: "Manila Esports League", Email: "hello@mel.ph", URL: "https://mel.ph"},
	{ID: 3, Name: "Visayas Gaming Guild", Email: "team@vgg.ph", URL: "https://vgg.ph"},
	{ID: 4, Name: "Mindanao Pro Circuit", Email: "info@mpc.ph", URL: "https://mpc.ph"},
	{ID: 5, Name: "Kultura Live", Email: "tickets@kulturalive.ph", URL: "https://kulturalive.ph"},
}

var demoVenues = []palaro.Venue{
	{ID: 1, Name: "SM Mall of Asia Arena", Address: "Seashell Lane, Mall of Asia Complex", City: "Pasay", Region: "Metro Manila", Latitude: 14.5326, Longitude: 120.9841},
	{ID: 2, Name: "Smart Araneta Coliseum", Address: "General Roxas Avenue, Araneta City, Cubao", City: "Quezon City", Region: "Metro Manila", Latitude: 14.6206, Longitude: 121.0537},
	{ID: 3, Name: "World Trade Center Metro Manila", Address: "Sen. Gil Puyat Avenue corner D. Macapagal Boulevard", City: "Pasay", Region: "Metro Manila", Latitude: 14.5497, Longitude: 120.9896},
	{ID: 4, Name: "SMX Convention Center Manila", Address: "Seashell Lane, Mall of Asia Complex", City: "Pasay", Region: "Metro Manila", Latitude: 14.5350, Longitude: 120.9822},
	{ID: 5, Name: "Bonifacio High Street Activity Center", Address: "7th Avenue corner 30th Street, Bonifacio Global City", City: "Taguig", Region: "Metro Manila", Latitude: 14.5507, Longitude: 121.0509},
	{ID: 6, Name: "Waterfront Cebu City Hotel", Address: "Salinas Drive, Lahug", City: "Cebu City", Region: "Central Visayas", Latitude: 10.3265, Longitude: 123.9050},
	{ID: 7, Name: "SM Seaside City Cebu Skyhall", Address: "Cebu South Coastal Road, South Road Properties", City: "Cebu City", Region: "Central Visayas", Latitude: 10.2819, Longitude: 123.8806},
	{ID: 8, Name: "SMX Convention Center Davao", Address: "SM Lanang Premier, J.P. Laurel Avenue", City: "Davao City", Region: "Davao Region", Latitude: 7.0985, Longitude: 125.6310},
	{ID: 9, Name: "Ateneo de Davao Finster Hall", Address: "E. Jacinto Street", City: "Davao City", Region: "Davao Region", Latitude: 7.0717, Longitude: 125.6128},
	{ID: 10, Name: "Iloilo Convention Center", Address: "Megaworld Boulevard, Iloilo Business Park, Mandurriao", City: "Iloilo City", Region: "Western Visayas", Latitude: 10.7156, Longitude: 122.5451},
	{ID: 11, Name: "Baguio Convention and Cultural Center", Address: "Governor Pack Road", City: "Baguio", Region: "Cordillera", Latitude: 16.4093, Longitude: 120.5991},
	{ID: 12, Name: "Limketkai Center Atrium", Address: "Limketkai Drive, Lapasan", City: "Cagayan de Oro", Region: "Northern Mindanao", Latitude: 8.4823, Longitude: 124.6553},
}

var demoTags = map[string]string{
	"esports":           "eSports",
	"mobile-legends":    "Mobile Legends",
	"valorant":          "Valorant",
	"dota-2":            "Dota 2",
	"tekken":            "Tekken",
	"street-fighter":    "Street Fighter",
	"cod-mobile":        "Call of Duty Mobile",
	"pubg-mobile":       "PUBG Mobile",
	"league-of-legends": "League of Legends",
	"counter-strike":    "Counter-Strike 2",
	"moba":              "MOBA",
	"fps":               "Tactical shooters",
	"fighting-games":    "Fighting games",
	"mobile-games":      "Mobile games",
	"concert":           "Concerts",
	"cosplay":           "Cosplay",
	"convention":        "Conventions",
	"lan-party":         "LAN party",
	"free":              "Free entry",
}

var defaultAddOns = []palaro.AddOn{
	{Name: "Event shirt", Price: 59900, Category: "Merchandise", Notes: "Cotton, sizes S to XXL; claim at the merch booth.", ImageURL: "img/addons/shirt.svg"},
	{Name: "Lanyard and sticker pack", Price: 0, Category: "Merchandise", Notes: "Free with every ticket.", ImageURL: "img/addons/lanyard.svg"},
	{Name: "Meal voucher", Price: 25000, Category: "Food", Notes: "Rice meal and drink at the food court.", ImageURL: "img/addons/meal.svg"},
	{Name: "Parking pass", Price: 15000, Category: "Parking", Notes: "One car, whole day.", ImageURL: "img/addons/parking.svg"},
}

func link(label, url string) palaro.Link { return palaro.Link{Label: label, URL: url} }

// arenaTickets is the usual ticket ladder of a paid eSports show.
func arenaTickets(base palaro.Money, soldRatio int) []demoTicket {
	return []demoTicket{
		{suffix: "gen", name: "General Admission", description: "Upper box, free seating.", price: base, max: 10, capacity: 2000, sold: 20 * soldRatio, promo: true},
		{suffix: "lower", name: "Lower Box", description: "Assigned seat in the lower box.", price: base * 3, max: 6, capacity: 400, sold: 4 * soldRatio, promo: true, seated: true},
		{suffix: "vip", name: "VIP Pass", description: "Courtside seat, meet-and-greet with the players, exclusive jersey.", price: base * 8, discount: 0.15, max: 2, capacity: 60, sold: soldRatio, disclaimer: "VIP passes are non-transferable; bring a valid ID that matches the ticket holder's name."},
	}
}

func freeTicket(capacity int) []demoTicket {
	return []demoTicket{{suffix: "free", name: "Free Registration", description: "Walk-in registration; one pass per person.", price: 0, max: 1, capacity: capacity, sold: capacity / 5}}
}

func demoEvents() []demoEvent {
	stream := link("Watch live on Twitch", "https://www.twitch.tv/palaroph")
	discord := link("Join the Discord", "https://discord.gg/palaro")
	rules := link("Tournament rules", "https://palaro.ph/rules")
	fb := link("Facebook page", "https://www.facebook.com/palaroph")
	return []demoEvent{
		{code: "mlbb-manila-showdown", name: "MLBB Manila Showdown", image: "moba", fromNow: true, hour: -2, hours: 9, venue: 1, organizer: 2, popularity: 98,
			summary:     "Eight of the country's best Mobile Legends squads fight for the Manila crown.",
			description: "The biggest Mobile Legends: Bang Bang weekend in Metro Manila. Eight professional squads, best-of-five playoffs and a best-of-seven grand final, live casting in English and Filipino, cosplay parade at the half-time break and a fan zone with free-to-play stations.\n\nGates open two hours before the first match. Bring a valid ID.",
			tags:        []string{"esports", "mobile-legends", "moba", "mobile-games"}, links: []palaro.Link{stream, discord, rules},
			tickets: arenaTickets(45000, 60), addOns: defaultAddOns,
			required:       []string{"firstName", "lastName", "mobileNumber", "email"},
			surveyQuestion: "Which team are you cheering for?", surveyAnswers: []string{"Blacklist Manila", "Echo Kings", "Onic Tondo", "Undecided"}},
		{code: "valorant-night-market-bgc", name: "Valorant Night Market: BGC Open", image: "fps", fromNow: true, hour: 1, hours: 5, venue: 5, organizer: 1, popularity: 71,
			summary:     "An open-air Valorant watch party and 5v5 community cup under the BGC lights.",
			description: "Bring your squad of five and sign up for the community cup, or just grab a seat at the big screen for the Pacific League playoffs. Food trucks, skins giveaways every hour and a pro-am showmatch at 9 PM.",
			tags:        []string{"esports", "valorant", "fps"}, links: []palaro.Link{stream, discord},
			tickets:  []demoTicket{{suffix: "watch", name: "Watch Party", price: 0, max: 4, capacity: 800, sold: 350}, {suffix: "team", name: "Community Cup Team Slot (5 players)", price: 250000, max: 1, capacity: 32, sold: 27, survey: true}},
			required: []string{"fullName", "mobileNumber", "email"}, surveyQuestion: "What rank is your team captain?", surveyAnswers: []string{"Iron to Gold", "Platinum to Diamond", "Ascendant and up"}},
		{code: "tekken-tuesdays-cubao", name: "Tekken Tuesdays: Cubao", image: "fighting", day: 0, hour: 19, hours: 4, venue: 2, organizer: 2, popularity: 35,
			summary: "The weekly Tekken 8 bracket for every level of player.", description: "Double-elimination Tekken 8 bracket on PS5 setups, with a casuals corner for newcomers. Top three take home cash prizes and Palaro points.",
			tags: []string{"esports", "tekken", "fighting-games"}, links: []palaro.Link{discord},
			tickets: []demoTicket{{suffix: "entry", name: "Bracket Entry", price: 20000, max: 1, capacity: 64, sold: 40, qrOnly: true}, {suffix: "spectator", name: "Spectator", price: 0, max: 4, capacity: 150, sold: 30}}},
		{code: "dota-2-visayas-major", name: "Dota 2 Visayas Major", image: "moba", day: 1, hour: 10, hours: 10, venue: 6, organizer: 3, popularity: 88,
			summary: "Sixteen Dota 2 teams from the Visayas and beyond meet in Cebu.", description: "Two days of group stage and a Sunday of playoffs, casting by the Cebuano Dota community, and an Aghanim's Lab booth for newcomers to learn the game.",
			tags: []string{"esports", "dota-2", "moba"}, links: []palaro.Link{stream, rules}, tickets: arenaTickets(35000, 40), addOns: defaultAddOns},
		{code: "cosplay-mania-manila", name: "Cosplay Mania Manila", image: "cosplay", day: 2, hour: 10, hours: 10, venue: 4, organizer: 5, popularity: 93,
			summary: "The country's favourite cosplay and pop-culture convention.", description: "Cosplay competitions, artist alley with more than 200 local creators, guest cosplayers from Japan and Korea, photo sets and a games zone.",
			tags: []string{"cosplay", "convention"}, links: []palaro.Link{fb},
			tickets: []demoTicket{{suffix: "day", name: "Day Pass", price: 55000, max: 10, capacity: 5000, sold: 3100, promo: true}, {suffix: "weekend", name: "Weekend Pass", price: 95000, discount: 0.1, max: 10, capacity: 2000, sold: 900, promo: true}},
			addOns:  defaultAddOns, required: []string{"fullName", "email", "age"}},
		{code: "codm-campus-clash-iloilo", name: "CODM Campus Clash: Iloilo", image: "mobile", day: 3, hour: 13, hours: 6, venue: 10, organizer: 3, popularity: 40,
			summary: "University teams battle in Call of Duty: Mobile.", description: "Twelve university squads from Western Visayas in a Search and Destroy and Hardpoint series. Free for students with a school ID.",
			tags: []string{"esports", "cod-mobile", "mobile-games", "fps", "free"}, tickets: freeTicket(600),
			required: []string{"firstName", "lastName", "companyName", "designation"}},
		{code: "pubg-mobile-davao-cup", name: "PUBG Mobile Davao Cup", image: "mobile", day: 4, hour: 12, hours: 8, venue: 8, organizer: 4, popularity: 66,
			summary: "Sixteen squads, five matches, one chicken dinner.", description: "Mindanao's top PUBG Mobile squads drop in for a five-match final at SMX Davao. Meet the casters and grab exclusive in-game codes at the booth.",
			tags: []string{"esports", "pubg-mobile", "mobile-games"}, links: []palaro.Link{stream}, tickets: arenaTickets(25000, 20), addOns: defaultAddOns},
		{code: "street-fighter-6-kumite-ph", name: "Street Fighter 6 Kumite PH", image: "fighting", day: 5, hour: 11, hours: 9, venue: 3, organizer: 2, popularity: 58,
			summary: "An invitational first-to-five exhibition and an open bracket.", description: "Ten invited players play long sets, while the open bracket runs on 48 setups. A Capcom Pro Tour qualifier points event.",
			tags: []string{"esports", "street-fighter", "fighting-games"}, tickets: arenaTickets(30000, 15)},
		{code: "lan-party-baguio", name: "Baguio Highlands LAN Party", image: "lan", day: 6, hour: 9, hours: 14, venue: 11, organizer: 1, popularity: 30,
			summary: "Bring your rig: 200 seats of LAN in the cool mountain air.", description: "Power, gigabit network and a chair for your PC. Side tournaments in Counter-Strike 2, Valorant and retro games, and a midnight pizza run.",
			tags: []string{"lan-party", "counter-strike", "valorant"}, tickets: []demoTicket{{suffix: "seat", name: "LAN Seat (bring your PC)", price: 80000, max: 2, capacity: 200, sold: 150, seated: true}, {suffix: "visitor", name: "Visitor", price: 10000, max: 5, capacity: 300, sold: 40}}},
		{code: "opm-rising-concert", name: "OPM Rising: Live at the Coliseum", image: "concert", day: 8, hour: 19, hours: 4, venue: 2, organizer: 5, popularity: 95,
			summary: "The new wave of Original Pilipino Music in one night.", description: "Six of the country's fastest-rising acts share one stage, with a full band, string section and a closing jam. Doors open at 5 PM.",
			tags: []string{"concert"}, links: []palaro.Link{fb},
			tickets: []demoTicket{{suffix: "gen", name: "General Admission", price: 150000, max: 8, capacity: 6000, sold: 5200}, {suffix: "patron", name: "Patron", price: 650000, discount: 0.2, max: 4, capacity: 800, sold: 610, seated: true, disclaimer: "No professional cameras or recording devices allowed."}}},
		{code: "lol-wild-rift-cebu-invitational", name: "Wild Rift Cebu Invitational", image: "moba", day: 9, hour: 14, hours: 7, venue: 7, organizer: 3, popularity: 47,
			summary: "The best Wild Rift teams of the south meet at SM Seaside.", description: "A one-day invitational with six teams, a skins raffle and a solo queue challenge for fans.",
			tags: []string{"esports", "league-of-legends", "moba", "mobile-games"}, tickets: arenaTickets(20000, 10)},
		{code: "mindanao-gaming-expo", name: "Mindanao Gaming Expo", image: "expo", day: 11, hour: 10, hours: 9, venue: 12, organizer: 4, popularity: 61,
			summary: "Game studios, hardware and tournaments in Cagayan de Oro.", description: "Play upcoming titles from Filipino indie studios, try the newest phones and handhelds and catch the regional finals of three tournaments.",
			tags: []string{"convention", "esports", "mobile-games"}, tickets: []demoTicket{{suffix: "entry", name: "Expo Entry", price: 15000, max: 10, capacity: 3000, sold: 800, promo: true}}, addOns: defaultAddOns},
		{code: "counter-strike-pinoy-masters", name: "Counter-Strike Pinoy Masters", image: "fps", day: 13, hour: 12, hours: 9, venue: 3, organizer: 2, popularity: 54,
			summary: "Counter-Strike 2's national championship.", description: "Eight teams, best-of-three group stage and a best-of-five final on Inferno, Mirage and Nuke. The winner represents the Philippines in Southeast Asia.",
			tags: []string{"esports", "counter-strike", "fps"}, links: []palaro.Link{stream, rules}, tickets: arenaTickets(40000, 12)},
		{code: "anime-and-games-fest-davao", name: "Anime and Games Fest Davao", image: "cosplay", day: 15, hour: 10, hours: 9, venue: 9, organizer: 5, popularity: 44,
			summary: "Cosplay, anime screenings and a games zone in Davao.", description: "A weekend of cosplay contests, anime screenings, a card-games corner and a Smash Bros tournament.",
			tags: []string{"cosplay", "convention", "fighting-games"}, tickets: []demoTicket{{suffix: "day", name: "Day Pass", price: 30000, max: 10, capacity: 2500, sold: 700}}},
		{code: "mlbb-women-invitational", name: "MLBB Women's Invitational", image: "moba", day: 17, hour: 13, hours: 7, venue: 5, organizer: 2, popularity: 77,
			summary: "The top women's Mobile Legends squads in the region.", description: "Six women's squads from the Philippines, Indonesia and Malaysia compete for a share of ₱1,000,000.",
			tags: []string{"esports", "mobile-legends", "moba"}, links: []palaro.Link{stream}, tickets: arenaTickets(30000, 25), addOns: defaultAddOns},
		{code: "retro-arcade-night-qc", name: "Retro Arcade Night", image: "lan", day: 19, hour: 18, hours: 6, venue: 2, organizer: 1, popularity: 28,
			summary: "Free-play arcade cabinets from the 80s and 90s.", description: "Sixty arcade cabinets set to free play, a King of Fighters '98 bracket and a chiptune DJ set.",
			tags: []string{"fighting-games", "free"}, tickets: freeTicket(500)},
		{code: "esports-career-summit", name: "Esports Careers Summit", image: "expo", day: 21, hour: 9, hours: 8, venue: 3, organizer: 1, popularity: 25,
			summary: "Talks and workshops on working in the gaming industry.", description: "Casters, team managers, game designers and marketers talk about their work and review portfolios. Lunch included.",
			tags: []string{"convention", "esports"}, tickets: []demoTicket{{suffix: "pass", name: "Summit Pass", price: 120000, discount: 0.25, max: 3, capacity: 300, sold: 120}},
			required: []string{"fullName", "email", "companyName", "designation", "economicClass", "gender", "birthDate"}},
		{code: "valorant-campus-cup-cebu", name: "Valorant Campus Cup: Cebu", image: "fps", day: 23, hour: 13, hours: 7, venue: 6, organizer: 3, popularity: 38,
			summary: "Cebu's universities fight for the campus crown.", description: "Sixteen university teams in a single-day Valorant cup. Free admission for spectators.",
			tags: []string{"esports", "valorant", "fps", "free"}, tickets: freeTicket(900)},
		{code: "tekken-8-king-of-iron-fist-ph", name: "King of Iron Fist PH", image: "fighting", day: 25, hour: 11, hours: 10, venue: 1, organizer: 2, popularity: 69,
			summary: "The national Tekken 8 championship.", description: "Open bracket on Saturday, top 8 on Sunday on the main stage, and an exhibition against visiting Korean pros.",
			tags: []string{"esports", "tekken", "fighting-games"}, links: []palaro.Link{stream}, tickets: arenaTickets(35000, 30)},
		{code: "christmas-games-bazaar", name: "Pasko Games Bazaar", image: "expo", day: 27, hour: 10, hours: 10, venue: 4, organizer: 5, popularity: 52,
			summary: "Christmas shopping for gamers: merch, figures and board games.", description: "More than 150 booths of merchandise, figures, board games and indie games, with a tabletop play area.",
			tags: []string{"convention"}, tickets: []demoTicket{{suffix: "entry", name: "Bazaar Entry", price: 5000, max: 10, capacity: 8000, sold: 1500}}},
		{code: "dota-2-manila-major-qualifier", name: "Dota 2 Manila Qualifier", image: "moba", day: 30, hour: 12, hours: 9, venue: 3, organizer: 2, popularity: 64,
			summary: "Qualifier for the Southeast Asian Dota 2 circuit.", description: "Twelve teams, two days, one slot to the regional finals.",
			tags: []string{"esports", "dota-2", "moba"}, tickets: arenaTickets(30000, 10)},
		{code: "pubg-mobile-national-finals", name: "PUBG Mobile National Finals", image: "mobile", day: 34, hour: 13, hours: 8, venue: 1, organizer: 2, popularity: 80,
			summary: "The national finals of PUBG Mobile.", description: "Twenty squads and a ₱3,000,000 prize pool at the Mall of Asia Arena.",
			tags: []string{"esports", "pubg-mobile", "mobile-games"}, links: []palaro.Link{stream}, tickets: arenaTickets(40000, 35), addOns: defaultAddOns},
		{code: "indie-game-jam-showcase", name: "Indie Game Jam Showcase", image: "expo", day: 38, hour: 14, hours: 5, venue: 5, organizer: 1, popularity: 22,
			summary: "Play what Filipino developers made in 48 hours.", description: "The results of the national game jam: play every entry, vote for the audience award and meet the teams.",
			tags: []string{"convention", "free"}, tickets: freeTicket(400)},
		{code: "bisaya-beats-festival", name: "Bisaya Beats Festival", image: "concert", day: 42, hour: 16, hours: 7, venue: 7, organizer: 5, popularity: 73,
			summary: "The best of Bisaya pop, rock and hip-hop by the sea.", description: "An open-air festival with twelve acts on two stages, food stalls from Cebu's best kitchens and a fireworks finale.",
			tags: []string{"concert"}, tickets: []demoTicket{{suffix: "ga", name: "General Admission", price: 90000, max: 10, capacity: 8000, sold: 2400}, {suffix: "vip", name: "VIP", price: 300000, max: 4, capacity: 500, sold: 100}}},
		{code: "mlbb-mindanao-regionals", name: "MLBB Mindanao Regionals", image: "moba", day: 46, hour: 12, hours: 8, venue: 8, organizer: 4, popularity: 59,
			summary: "The road to the national finals goes through Davao.", description: "Sixteen teams from Mindanao fight for two national finals slots.",
			tags: []string{"esports", "mobile-legends", "moba", "mobile-games"}, tickets: arenaTickets(20000, 15)},
		{code: "fighting-game-summit-cebu", name: "Cebu Fighting Game Summit", image: "fighting", day: 52, hour: 10, hours: 10, venue: 6, organizer: 3, popularity: 33,
			summary: "Tekken, Street Fighter, Guilty Gear and more.", description: "Six brackets, a side-events room and an anime-fighter showcase.",
			tags: []string{"esports", "fighting-games", "tekken", "street-fighter"}, tickets: []demoTicket{{suffix: "venue", name: "Venue Fee", price: 25000, max: 1, capacity: 400, sold: 90}, {suffix: "spectator", name: "Spectator", price: 0, max: 4, capacity: 300, sold: 60}}},
		{code: "cod-mobile-grand-finals", name: "Call of Duty Mobile Grand Finals", image: "mobile", day: 60, hour: 13, hours: 7, venue: 2, organizer: 2, popularity: 67,
			summary: "The season's last CODM series at the Big Dome.", description: "The top four teams of the season, best-of-seven grand final, with a halftime show.",
			tags: []string{"esports", "cod-mobile", "mobile-games", "fps"}, tickets: arenaTickets(35000, 20)},
		{code: "pinoy-komikon-summer", name: "Komiks and Cosplay Summer Con", image: "cosplay", day: 75, hour: 10, hours: 9, venue: 4, organizer: 5, popularity: 49,
			summary: "Komiks, cosplay and collectibles.", description: "The summer's comics convention with a cosplay stage and a collectibles market.",
			tags: []string{"cosplay", "convention"}, tickets: []demoTicket{{suffix: "day", name: "Day Pass", price: 25000, max: 10, capacity: 4000, sold: 100}}},
		{code: "valorant-pacific-watch-party-davao", name: "Valorant Pacific Watch Party: Davao", image: "fps", day: 90, hour: 17, hours: 5, venue: 9, organizer: 4, popularity: 26,
			summary: "Watch the Pacific finals together in Davao.", description: "Big screen, casters on site and prizes for the best predictions.",
			tags: []string{"esports", "valorant", "fps", "free"}, tickets: freeTicket(350)},
		{code: "esports-league-iloilo-season-2", name: "Iloilo Esports League Season 2", image: "moba", day: 120, hour: 13, hours: 6, venue: 10, organizer: 3, popularity: 20,
			summary: "Season opener of the Iloilo Esports League.", description: "Opening day of the league's second season: Mobile Legends and Valorant divisions.",
			tags: []string{"esports", "mobile-legends", "valorant"}, tickets: []demoTicket{{suffix: "season", name: "Season Pass", price: 50000, discount: 0.3, max: 2, capacity: 500, sold: 0}}},
		{code: "tekken-tuesdays-last-week", name: "Tekken Tuesdays: Cubao (last week)", image: "fighting", day: -7, hour: 19, hours: 4, venue: 2, organizer: 2, popularity: 31,
			summary: "Last week's Tekken 8 bracket.", description: "The weekly bracket, already played. Results are on our Discord.",
			tags: []string{"esports", "tekken", "fighting-games"}, tickets: []demoTicket{{suffix: "entry", name: "Bracket Entry", price: 20000, max: 1, capacity: 64, sold: 64}}},
		{code: "mlbb-season-opener", name: "MLBB Season Opener", image: "moba", day: -20, hour: 13, hours: 8, venue: 1, organizer: 2, popularity: 90,
			summary: "The season opener, already played.", description: "Opening weekend of the Mobile Legends season.",
			tags: []string{"esports", "mobile-legends", "moba"}, tickets: arenaTickets(40000, 80)},
		{code: "halloween-cosplay-night", name: "Halloween Cosplay Night", image: "cosplay", day: -30, hour: 18, hours: 5, venue: 5, organizer: 5, popularity: 45,
			summary: "Last month's Halloween cosplay party.", description: "Costume contest and a night market, already held.",
			tags: []string{"cosplay"}, tickets: []demoTicket{{suffix: "entry", name: "Entry", price: 20000, max: 10, capacity: 1000, sold: 800}}},
		{code: "street-fighter-weekly-postponed", name: "Street Fighter Weekly (postponed)", image: "fighting", day: 10, hour: 19, hours: 4, venue: 3, organizer: 2, popularity: 10, status: palaro.EventPostponed,
			summary: "Postponed: a new date will be announced.", description: "This week's Street Fighter 6 bracket is postponed; tickets stay valid for the new date.",
			tags: []string{"esports", "street-fighter", "fighting-games"}, tickets: []demoTicket{{suffix: "entry", name: "Bracket Entry", price: 15000, max: 1, capacity: 64, sold: 12}}},
	}
}
