package handlers

import (
	"net/http"

	"github.com/labstack/echo/v5"

	"palaro"
)

// The route table: every route of the server on one line, with who may call it and the
// properties the middleware reads from the matched route (routeOf):
//
//   - access: public (anyone), signedIn (the handler asks an anonymous visitor to sign in, or
//     answers 401/404), organizer (orgAccess checks the caller's role for the line's action and,
//     for routes with an event code, that the event is the caller's), operator (operatorOnly);
//   - limit(rule): a per-IP limit of the whole route (rateLimitRoutes; GET and HEAD are never
//     limited); the handlers add limits per session, account or recipient of their own;
//   - cached: a public page, the same bytes for every anonymous visitor: no session is started
//     for it and the page cache keeps it (pagecache.go);
//   - noCSRF(why): a route whose POSTs take no session CSRF token, with the reason (checkCSRF):
//     signed by another server, or the widget's framed buy form with its own form token;
//   - token: an organizer route an API token (Authorization: Bearer) may call (bearerToken).
//
// The sandbox's pages are registered only when the sandbox collects payments (ifPaymentPages).
// TestRouteTable_EveryRoute (cmd/palaro) checks that the router has exactly the table's routes.
var routeTable = []route{
	r(GET, "/static/*", (*Server).serveAsset, public),
	r(GET, "/build.json", (*Server).buildInfo, public),
	r(GET, "/robots.txt", (*Server).robots, public),
	r(GET, "/sitemap.xml", (*Server).sitemap, public),
	r(GET, "/manifest.webmanifest", (*Server).webManifest, public),

	// Discovery and the text pages.
	r(GET, "/", (*Server).home, public, cached),
	r(GET, "/events", (*Server).eventListFragment, public, cached),
	r(GET, "/e/:code", (*Server).eventPage, public, cached),
	r(GET, "/e/:code/calendar.ics", (*Server).eventICS, public),
	r(GET, "/e/:code/:date", (*Server).eventDatePage, public, cached), // one date of a series: YYYY-MM-DD, -2 for a second session
	r(GET, "/e/:code/:date/calendar.ics", (*Server).eventDateICS, public),
	r(GET, embedEventPath, (*Server).embedPage, public, cached), // the ticket widget, framed by the event's sites
	r(GET, "/embed/widget.js", (*Server).widgetJS, public),      // the widget's script snippet: the iframe and the buy overlay
	r(GET, embedBuyPath, (*Server).embedBuyPage, public),        // the overlay's buy page, framed by the event's sites
	r(POST, embedBuyPath, (*Server).embedBuyPost, public,
		noCSRF("a frame has no cookie: the framed buy form carries a signed form token, checked by embedBuyPost")),
	r(GET, embedOrderPath, (*Server).embedOrderPage, public), // an order placed in the overlay
	r(GET, "/calendar.ics", (*Server).calendarICS, public),
	r(GET, "/f/:tag", (*Server).findPage, public, cached),
	r(GET, "/calendar", (*Server).calendarPage, public, cached),
	r(GET, "/v1/calendar", (*Server).calendarEvents, public, cached),
	r(GET, "/v1/openapi.json", (*Server).openAPI, public, cached),
	r(GET, "/about", (*Server).aboutPage, public, cached),
	r(GET, "/faq", (*Server).faqPage, public, cached),
	r(GET, "/contacts", (*Server).contactsPage, public, cached),
	r(GET, "/privacy", (*Server).privacyPage, public, cached),
	r(GET, "/terms", (*Server).termsPage, public, cached),
	r(GET, "/cookies", (*Server).cookiesPage, public, cached),

	// Buying: the buy page and its no-JS form, the seat map, the purchase API.
	r(GET, "/b/:code", (*Server).buyPage, public),
	r(POST, "/b/:code", (*Server).buyFormPost, public),
	r(GET, "/s/:code", (*Server).seatsPage, public),
	r(GET, "/v1/seats/:code/sections/:section", (*Server).sectionSeats, public),
	r(POST, "/v1/seats/:code/best", (*Server).bestSeats, public),
	r(GET, "/v1/csrf", (*Server).csrfTokenAPI, public),
	r(GET, "/v1/ticket_type", (*Server).ticketType, public),
	r(POST, "/v1/ticket/buy", (*Server).buyTicket, public),
	r(GET, "/v1/ticket/add", (*Server).ticketAddOns, public),
	r(POST, "/v1/ticket/add", (*Server).buyAddOns, public),
	r(POST, "/v1/ticket/change-email", (*Server).changeEmail, public),
	r(GET, "/v1/ticket/status", (*Server).ticketStatus, public),
	r(POST, "/v1/tickets/link", (*Server).ticketsLink, public),
	r(GET, "/change-email/confirm/:token", (*Server).confirmEmailChange, public),
	r(POST, "/change-email/confirm/:token", (*Server).confirmEmailChange, public),
	r(POST, "/v1/payment/webhook/:provider", (*Server).paymentWebhook, public,
		noCSRF("payment provider webhooks are signed by the provider")),
	// The sandbox stands in for a payment provider's hosted checkout, a site of its own in
	// production; its forms carry no session token and it refuses cross-origin posts itself
	// (http.CrossOriginProtection).
	r(ANY, "/sandbox/*", (*Server).paymentPages, public, ifPaymentPages,
		noCSRF("the payment sandbox's hosted checkout refuses cross-origin posts itself")),

	// Orders and tickets.
	r(GET, "/payment/success/:id", (*Server).orderPage, public),
	r(GET, "/invoice/:id", (*Server).invoicePage, public),
	r(GET, "/payment/success/:id/cancel", (*Server).selfCancelPage, public),
	r(POST, "/payment/success/:id/cancel", (*Server).selfCancelPage, public),
	r(POST, "/payment/success/:id/return/:ticket", (*Server).returnTicket, public),
	r(POST, "/payment/success/:id/return/:ticket/withdraw", (*Server).withdrawReturn, public),
	r(GET, "/t/:id", (*Server).ticketPage, public),
	r(GET, "/q/:id", (*Server).qrPage, public),
	r(GET, "/a/:id", (*Server).addOnsPage, public),
	r(GET, "/change-email/:id", (*Server).changeEmailPage, public),
	r(POST, "/change-email/:id", (*Server).changeEmailPage, public),
	r(GET, "/change-email/success/:id", (*Server).changeEmailSuccessPage, public),
	r(GET, "/change-ticket/success/:id", (*Server).changeTicketSuccessPage, public),
	r(GET, "/tickets", (*Server).ticketsPage, public),
	r(POST, "/tickets", (*Server).ticketsPage, public),
	r(GET, "/tickets/:token", (*Server).ticketsByLinkPage, public),
	r(GET, "/sw.js", (*Server).serviceWorker, public),

	// Tournaments: the teams page, captains' registrations and team pages, players' links.
	r(GET, "/e/:code/teams", (*Server).teamsPage, public, cached),
	r(GET, teamRegisterPath, (*Server).teamRegisterPage, signedIn),
	r(POST, teamRegisterPath, (*Server).teamRegisterPage, signedIn, limit(limitRegistration)),
	r(GET, "/team/:team", (*Server).teamPage, signedIn),
	r(POST, "/team/:team/invite", (*Server).teamInvite, signedIn, limit(limitRegistration)),
	r(POST, "/team/:team/check-in", (*Server).teamCheckIn, signedIn),
	r(POST, "/team/:team/pay", (*Server).teamPay, signedIn),
	r(GET, "/team/:team/logo", (*Server).teamLogo, public),
	r(GET, "/team/join/:token", (*Server).teamJoinPage, public),
	r(POST, "/team/join/:token", (*Server).teamJoinPage, public),
	r(POST, "/team/join/:token/check-in", (*Server).teamPlayerCheckIn, public),

	// Queue.
	r(GET, "/queue/:code", (*Server).queuePage, public),
	r(GET, "/v1/queue/:code", (*Server).queueAPI, public),

	// Accounts.
	r(GET, "/sign-up", (*Server).signUpPage, public),
	r(POST, "/sign-up", (*Server).signUp, public, limit(limitRegistration)),
	r(GET, "/sign-in", (*Server).signInPage, public),
	r(POST, "/sign-in", (*Server).signIn, public),
	r(POST, "/sign-out", (*Server).signOut, public),
	r(GET, "/activate", (*Server).activate, public),
	r(GET, "/reset-password", (*Server).resetPasswordPage, public),
	r(POST, "/reset-password", (*Server).requestResetCode, public, limit(limitResetRequest)),
	r(GET, "/reset-password/new", (*Server).newPasswordPage, public),
	r(POST, "/reset-password/new", (*Server).resetPassword, public, limit(limitResetCheck)),
	r(GET, "/profile", (*Server).profilePage, signedIn),
	r(POST, "/profile", (*Server).updateProfile, signedIn, limit(limitProfile)),
	r(POST, "/profile/mobile", (*Server).confirmMobile, signedIn, limit(limitProfile)),
	r(POST, "/profile/mobile/code", (*Server).resendMobileCode, signedIn, limit(limitProfile)),
	r(GET, "/profile/picture", (*Server).picture, signedIn),
	r(POST, "/profile/picture", (*Server).uploadPicture, signedIn, limit(limitPicture)),
	r(POST, "/profile/email", (*Server).requestEmailChange, signedIn, limit(limitRegistration)),
	r(POST, "/profile/password", (*Server).changePassword, signedIn),
	r(POST, "/profile/activation", (*Server).resendActivation, signedIn, limit(limitRegistration)),
	r(GET, "/profile/email/confirm", (*Server).confirmAccountEmail, public),
	r(GET, "/register", (*Server).registerPage, public),
	r(POST, "/register", (*Server).registerForm, public, limit(limitRegistration)),
	r(POST, "/v1/participant/register", (*Server).registerAPI, public, limit(limitRegistration)),
	r(GET, "/register/success", (*Server).registeredPage, public),
	r(GET, "/register/success/:id", (*Server).participantPage, public),
	r(GET, "/register/organizer", (*Server).organizerPage, public),
	r(POST, "/register/organizer", (*Server).organizerForm, public, limit(limitRegistration)),
	r(POST, "/v1/user/signup", (*Server).organizerAPI, public, limit(limitRegistration)),
	r(GET, "/register/success/organizer", (*Server).organizerRegisteredPage, public),
	r(GET, "/report", (*Server).reportPage, public),
	r(POST, "/report", (*Server).reportForm, public, limit(limitRegistration)),
	r(GET, "/report/success/:id", (*Server).reportedPage, public),

	// Engagement: the participant's side of activities, quizzes, the partner app.
	r(GET, "/v1/scan", (*Server).apiScan, public),
	r(GET, "/scan", (*Server).scanPage, public),
	r(POST, "/scan", (*Server).scanPost, public),
	r(GET, "/activities", (*Server).activitiesPage, public),
	r(POST, "/activities/revealed", (*Server).cardRevealed, public),
	r(POST, "/activities/confirm", (*Server).sendParticipantCode, public, limit(limitProfile)),
	r(POST, "/activities/confirm/code", (*Server).confirmParticipantCode, public, limit(limitProfile)),
	r(GET, "/prize-images/:file", (*Server).prizeImageFile, public),
	r(GET, "/leaderboard", (*Server).leaderboardPage, public),
	r(GET, "/activities/qr", (*Server).participantQR, public),
	r(GET, "/quiz/:quiz/:code", (*Server).quizPage, public),
	r(POST, "/quiz/:quiz/:code", (*Server).submitQuiz, public),
	r(GET, "/quiz/:quiz/:code/step", (*Server).quizStep, public),
	r(POST, "/t/:id/partner-login", (*Server).partnerLogin, public),

	// News and the partner bank's pages.
	r(GET, "/news", (*Server).newsPage, public, cached),
	r(GET, "/news/feed.xml", (*Server).newsFeed, public, cached),
	r(GET, "/news/:slug", (*Server).articlePage, public, cached),
	r(GET, "/pnk", (*Server).partnerPage, public, cached),
	r(GET, "/pnk/promo", (*Server).partnerPage, public, cached),
	r(GET, "/pnk/theme.css", (*Server).partnerTheme, public, cached),

	// The operator's console: every news article and the partner bank's pages.
	r(GET, "/operator", (*Server).operatorHome, operator),
	r(GET, "/operator/news", (*Server).operatorNewsPage, operator),
	r(GET, "/operator/news/:slug", (*Server).operatorEditArticle, operator),
	r(POST, "/operator/news", (*Server).operatorSaveArticle, operator),
	r(GET, "/operator/pnk/:name", (*Server).operatorPartnerPage, operator),
	r(POST, "/operator/pnk/:name", (*Server).operatorSavePartner, operator),

	// Waiting lists.
	r(GET, "/waitlist/offer/:token", (*Server).waitlistOfferPage, public),
	r(POST, "/waitlist/offer/:token/decline", (*Server).waitlistDecline, public),
	r(GET, "/waitlist/:code", (*Server).waitlistPage, public),
	r(POST, "/waitlist/:code", (*Server).waitlistPage, public),

	// The organizer console and API; a team invitation's link; the events' cover images.
	o(GET, "/organizer", palaro.ActionViewEvents, (*Server).orgHome),
	o(GET, "/organizer/events/new", palaro.ActionManageEvents, (*Server).orgNewEventPage),
	o(POST, "/organizer/events", palaro.ActionManageEvents, (*Server).orgCreateEvent),
	o(GET, "/organizer/events/:code", palaro.ActionManageEvents, (*Server).orgEventPage),
	o(GET, "/organizer/events/:code/edit", palaro.ActionManageEvents, (*Server).orgEditEventPage),
	o(POST, "/organizer/events/:code", palaro.ActionManageEvents, (*Server).orgUpdateEvent),
	o(POST, coverUploadPath, palaro.ActionManageEvents, (*Server).orgUploadCover),
	o(GET, "/organizer/events/:code/status", palaro.ActionManageEvents, (*Server).orgConfirmStatus),
	o(POST, "/organizer/events/:code/status", palaro.ActionManageEvents, (*Server).orgSetStatus),
	o(GET, "/organizer/events/:code/ticket-types/new", palaro.ActionManageEvents, (*Server).orgNewTicketTypePage),
	o(POST, "/organizer/events/:code/ticket-types", palaro.ActionManageEvents, (*Server).orgCreateTicketType),
	o(GET, "/organizer/events/:code/ticket-types/:type/edit", palaro.ActionManageEvents, (*Server).orgEditTicketTypePage),
	o(POST, "/organizer/events/:code/ticket-types/:type", palaro.ActionManageEvents, (*Server).orgUpdateTicketType),
	o(POST, "/organizer/events/:code/ticket-types/:type/seats", palaro.ActionManageEvents, (*Server).orgSetBlockedSeats),
	o(GET, "/organizer/events/:code/add-ons", palaro.ActionManageEvents, (*Server).orgAddOnsPage),
	o(POST, "/organizer/events/:code/add-ons", palaro.ActionManageEvents, (*Server).orgSaveAddOn),
	o(POST, "/organizer/events/:code/add-ons/:id/delete", palaro.ActionManageEvents, (*Server).orgDeleteAddOn),
	o(GET, "/organizer/events/:code/promo-codes", palaro.ActionManageEvents, (*Server).orgPromoCodesPage),
	o(POST, "/organizer/events/:code/promo-codes", palaro.ActionManageEvents, (*Server).orgCreatePromoCode),
	o(POST, "/organizer/events/:code/promo-codes/:id/pause", palaro.ActionManageEvents, (*Server).orgPausePromoCode),
	o(POST, "/organizer/events/:code/promo-codes/:id/delete", palaro.ActionManageEvents, (*Server).orgDeletePromoCode),
	o(GET, "/organizer/events/:code/emails", palaro.ActionManageEvents, (*Server).orgEmailsPage),
	o(POST, "/organizer/events/:code/emails", palaro.ActionManageEvents, (*Server).orgSaveEmails),
	o(POST, "/organizer/events/:code/emails/preview", palaro.ActionManageEvents, (*Server).orgPreviewEmails),
	o(POST, "/organizer/events/:code/emails/test", palaro.ActionManageEvents, (*Server).orgTestEmails),
	o(GET, "/organizer/events/:code/widget", palaro.ActionManageEvents, (*Server).orgWidgetPage),
	o(POST, "/organizer/events/:code/widget", palaro.ActionManageEvents, (*Server).orgSaveWidget),
	o(GET, "/organizer/events/:code/messages", palaro.ActionManageEvents, (*Server).orgMessagesPage),
	o(POST, "/organizer/events/:code/messages", palaro.ActionManageEvents, (*Server).orgSendMessage),
	o(GET, "/organizer/events/:code/orders", palaro.ActionOrders, (*Server).orgOrdersPage),
	o(GET, "/organizer/events/:code/orders/:order", palaro.ActionOrders, (*Server).orgOrderPage),
	o(POST, "/organizer/events/:code/orders/:order/resend", palaro.ActionOrders, (*Server).orgResendTickets),
	o(POST, "/organizer/events/:code/orders/:order/refunded", palaro.ActionOrders, (*Server).orgMarkRefunded),
	o(POST, "/organizer/events/:code/orders/:order/refund", palaro.ActionOrders, (*Server).orgRefundOrder),
	o(POST, "/organizer/events/:code/refunds/:refund/retry", palaro.ActionOrders, (*Server).orgRetryRefund),
	o(POST, "/organizer/events/:code/refund-all", palaro.ActionOrders, (*Server).orgRefundAll),
	o(POST, "/organizer/events/:code/tickets/:ticket/email", palaro.ActionOrders, (*Server).orgTicketEmail),
	o(POST, "/organizer/events/:code/tickets/:ticket/cancel", palaro.ActionOrders, (*Server).orgCancelTicket),
	o(GET, "/organizer/events/:code/dashboard", palaro.ActionOrders, (*Server).orgDashboardPage),
	o(GET, "/organizer/events/:code/refunds", palaro.ActionOrders, (*Server).orgRefundsPage),
	o(GET, "/organizer/events/:code/orders.csv", palaro.ActionOrders, (*Server).orgOrdersCSV, token),
	o(GET, "/organizer/events/:code/attendees.csv", palaro.ActionOrders, (*Server).orgAttendeesCSV, token),
	o(GET, "/organizer/team", palaro.ActionTeam, (*Server).orgTeamPage),
	o(POST, "/organizer/team", palaro.ActionTeam, (*Server).orgInvite),
	o(POST, "/organizer/team/:org/members/:user/remove", palaro.ActionTeam, (*Server).orgRemoveMember),
	o(GET, "/organizer/organization", palaro.ActionOrders, (*Server).orgOrganizationPage),
	o(POST, "/organizer/organization", palaro.ActionOrders, (*Server).orgSaveOrganization),
	o(GET, "/organizer/organization/invoices.csv", palaro.ActionOrders, (*Server).orgInvoiceRegisterCSV, token),
	o(GET, "/organizer/organization/admission-receipts", palaro.ActionOrders, (*Server).orgAdmissionReceiptsPage),
	o(GET, "/organizer/organization/admission-receipts.csv", palaro.ActionOrders, (*Server).orgAdmissionReceiptsCSV, token),
	o(GET, "/organizer/tokens", palaro.ActionTokens, (*Server).orgTokensPage),
	o(POST, "/organizer/tokens", palaro.ActionTokens, (*Server).orgCreateToken),
	o(POST, "/organizer/tokens/:id/revoke", palaro.ActionTokens, (*Server).orgRevokeToken),
	o(GET, "/organizer/webhooks", palaro.ActionWebhooks, (*Server).orgWebhooksPage),
	o(POST, "/organizer/webhooks", palaro.ActionWebhooks, (*Server).orgCreateWebhook),
	o(GET, "/organizer/webhooks/:id", palaro.ActionWebhooks, (*Server).orgWebhookPage),
	o(POST, "/organizer/webhooks/:id/active", palaro.ActionWebhooks, (*Server).orgSetWebhookActive),
	o(POST, "/organizer/webhooks/:id/delete", palaro.ActionWebhooks, (*Server).orgDeleteWebhook),
	o(POST, "/organizer/webhooks/:id/test", palaro.ActionWebhooks, (*Server).orgTestWebhook),
	o(POST, "/organizer/webhooks/:id/deliveries/:delivery/resend", palaro.ActionWebhooks, (*Server).orgRedeliverWebhook),
	r(GET, "/invitations/:token", (*Server).invitationPage, public),
	r(POST, "/invitations/:token", (*Server).acceptInvitation, signedIn),
	r(GET, "/event-images/:file", (*Server).eventImage, public),

	o(GET, "/v1/organizer/events", palaro.ActionViewEvents, (*Server).apiOrgEvents, token),
	o(POST, "/v1/organizer/events", palaro.ActionManageEvents, (*Server).apiOrgCreateEvent, token),
	o(GET, "/v1/organizer/events/:code", palaro.ActionManageEvents, (*Server).apiOrgEvent, token),
	o(PATCH, "/v1/organizer/events/:code", palaro.ActionManageEvents, (*Server).apiOrgUpdateEvent, token),
	o(POST, "/v1/organizer/events/:code/ticket-types", palaro.ActionManageEvents, (*Server).apiOrgCreateTicketType, token),
	o(PATCH, "/v1/organizer/events/:code/ticket-types/:type", palaro.ActionManageEvents, (*Server).apiOrgUpdateTicketType, token),
	o(GET, "/v1/organizer/events/:code/orders", palaro.ActionOrders, (*Server).apiOrgOrders, token),
	o(POST, "/v1/organizer/orders/:order/refund", palaro.ActionOrders, (*Server).apiOrgRefund, token),
	o(GET, "/v1/organizer/events/:code/dates", palaro.ActionManageEvents, (*Server).apiOrgDates, token),
	o(POST, "/v1/organizer/events/:code/dates", palaro.ActionManageEvents, (*Server).apiOrgCreateDates, token),
	o(PATCH, "/v1/organizer/events/:code/dates/:date", palaro.ActionManageEvents, (*Server).apiOrgUpdateDate, token),
	o(DELETE, "/v1/organizer/events/:code/dates/:date", palaro.ActionManageEvents, (*Server).apiOrgDeleteDate, token),
	o(GET, "/v1/organizer/events/:code/add-ons", palaro.ActionManageEvents, (*Server).apiOrgAddOns, token),
	o(POST, "/v1/organizer/events/:code/add-ons", palaro.ActionManageEvents, (*Server).apiOrgSaveAddOn, token),
	o(DELETE, "/v1/organizer/events/:code/add-ons/:id", palaro.ActionManageEvents, (*Server).apiOrgDeleteAddOn, token),
	o(GET, "/v1/organizer/events/:code/promo-codes", palaro.ActionManageEvents, (*Server).apiOrgPromoCodes, token),
	o(POST, "/v1/organizer/events/:code/promo-codes", palaro.ActionManageEvents, (*Server).apiOrgCreatePromoCode, token),
	o(PATCH, "/v1/organizer/events/:code/promo-codes/:promo", palaro.ActionManageEvents, (*Server).apiOrgUpdatePromoCode, token),
	o(DELETE, "/v1/organizer/events/:code/promo-codes/:promo", palaro.ActionManageEvents, (*Server).apiOrgDeletePromoCode, token),
	o(GET, "/v1/organizer/webhooks", palaro.ActionWebhooks, (*Server).apiOrgWebhooks, token),
	o(POST, "/v1/organizer/webhooks", palaro.ActionWebhooks, (*Server).apiOrgCreateWebhook, token),
	o(DELETE, "/v1/organizer/webhooks/:id", palaro.ActionWebhooks, (*Server).apiOrgDeleteWebhook, token),

	// Check-in: the gate, its live figures, the box office, the gate phones' API.
	o(GET, "/organizer/events/:code/check-in", palaro.ActionCheckIn, (*Server).gatePage),
	o(GET, "/organizer/events/:code/check-ins", palaro.ActionCheckIn, (*Server).checkInsPage),
	o(GET, "/organizer/events/:code/check-ins/live", palaro.ActionCheckIn, (*Server).checkInsLive),
	o(POST, "/organizer/events/:code/check-ins/undo", palaro.ActionOrders, (*Server).undoCheckIn),
	o(GET, "/v1/organizer/events/:code/gate-list", palaro.ActionCheckIn, (*Server).apiGateList, token),
	o(POST, "/v1/organizer/events/:code/box-office", palaro.ActionCheckIn, (*Server).apiBoxOffice, token),
	o(POST, "/v1/checkin", palaro.ActionCheckIn, (*Server).apiCheckIn, token),
	o(POST, "/v1/checkin/sync", palaro.ActionCheckIn, (*Server).apiCheckInSync, token),

	// Activities in the console (role booth and up).
	o(GET, "/organizer/events/:code/activities", palaro.ActionActivities, (*Server).orgActivitiesPage),
	o(POST, "/organizer/events/:code/activities", palaro.ActionActivities, (*Server).orgSaveActivity),
	o(GET, "/organizer/events/:code/activities/:activity/poster", palaro.ActionActivities, (*Server).orgPosterPage),
	o(GET, "/organizer/events/:code/activities/:activity/scan", palaro.ActionActivities, (*Server).orgBoothPage),
	o(GET, "/organizer/events/:code/activities/:activity/screen", palaro.ActionActivities, (*Server).orgBoothScreen),
	o(POST, "/organizer/events/:code/activities/:activity/scan", palaro.ActionActivities, (*Server).orgBoothScan),
	o(POST, "/organizer/events/:code/activities/:activity/claims/:visit", palaro.ActionActivities, (*Server).orgClaimPrize),
	o(POST, prizeImagePath, palaro.ActionActivities, (*Server).orgPrizeImage),
	o(GET, "/v1/organizer/events/:code/activities", palaro.ActionActivities, (*Server).apiOrgActivities, token),
	o(POST, "/v1/organizer/events/:code/activities", palaro.ActionActivities, (*Server).apiOrgCreateActivity, token),
	o(PATCH, "/v1/organizer/events/:code/activities/:activity", palaro.ActionActivities, (*Server).apiOrgUpdateActivity, token),

	// News in the console.
	o(GET, "/organizer/news", palaro.ActionManageEvents, (*Server).orgNewsPage),
	o(GET, "/organizer/news/:slug", palaro.ActionManageEvents, (*Server).orgEditArticle),
	o(POST, "/organizer/news", palaro.ActionManageEvents, (*Server).orgSaveArticle),

	// The queue in the console.
	o(GET, "/organizer/events/:code/queue", palaro.ActionManageEvents, (*Server).orgQueuePage),
	o(POST, "/organizer/events/:code/queue", palaro.ActionManageEvents, (*Server).orgSaveQueue),
	o(POST, "/organizer/events/:code/queue/off", palaro.ActionManageEvents, (*Server).orgQueueOff),
	o(GET, "/organizer/events/:code/queue/figures", palaro.ActionManageEvents, (*Server).orgQueueFigures),

	// Waiting lists in the console and the organizer API.
	o(GET, "/organizer/events/:code/cancellations", palaro.ActionOrders, (*Server).orgSelfCancelPage),
	o(POST, "/organizer/events/:code/cancellations", palaro.ActionManageEvents, (*Server).orgSelfCancelSave),
	o(GET, "/v1/organizer/events/:code/self-cancel", palaro.ActionOrders, (*Server).apiOrgSelfCancel, token),
	o(PATCH, "/v1/organizer/events/:code/self-cancel", palaro.ActionManageEvents, (*Server).apiOrgSelfCancel, token),
	o(GET, "/organizer/events/:code/waitlist", palaro.ActionOrders, (*Server).orgWaitlistPage),
	o(POST, "/organizer/events/:code/waitlist/offer-time", palaro.ActionManageEvents, (*Server).orgWaitlistOfferTime),
	o(POST, "/organizer/events/:code/waitlist/:entry/offer", palaro.ActionOrders, (*Server).orgWaitlistOffer),
	o(GET, "/organizer/events/:code/dates", palaro.ActionManageEvents, (*Server).orgDatesPage),
	o(POST, "/organizer/events/:code/dates", palaro.ActionManageEvents, (*Server).orgAddDate),
	o(POST, "/organizer/events/:code/dates/rule", palaro.ActionManageEvents, (*Server).orgAddWeeklyDates),
	o(POST, "/organizer/events/:code/dates/:date", palaro.ActionManageEvents, (*Server).orgUpdateDate),
	o(POST, "/organizer/events/:code/dates/:date/delete", palaro.ActionManageEvents, (*Server).orgDeleteDate),
	o(GET, "/organizer/events/:code/dates/:date/cancel", palaro.ActionManageEvents, (*Server).orgCancelDatePage),
	o(POST, "/organizer/events/:code/dates/:date/cancel", palaro.ActionManageEvents, (*Server).orgCancelDate),
	o(GET, "/organizer/events/:code/tournaments", palaro.ActionOrders, (*Server).orgTournamentsPage),
	o(GET, "/organizer/events/:code/tournaments/new", palaro.ActionManageEvents, (*Server).orgNewTournamentPage),
	o(POST, "/organizer/events/:code/tournaments/new", palaro.ActionManageEvents, (*Server).orgSaveTournament),
	o(GET, "/organizer/events/:code/tournaments/:tournament/edit", palaro.ActionManageEvents, (*Server).orgEditTournamentPage),
	o(POST, "/organizer/events/:code/tournaments/:tournament/edit", palaro.ActionManageEvents, (*Server).orgSaveTournament),
	o(POST, "/organizer/events/:code/tournaments/:tournament/teams/:team", palaro.ActionManageEvents, (*Server).orgTeamDecision),
	o(POST, "/organizer/events/:code/tournaments/:tournament/teams/:team/players/remove", palaro.ActionManageEvents, (*Server).orgRemovePlayer),
	o(GET, "/organizer/events/:code/tournaments/:tournament/teams.csv", palaro.ActionOrders, (*Server).orgTeamsExport),
	o(GET, "/organizer/events/:code/tournaments/:tournament/bracket.txt", palaro.ActionOrders, (*Server).orgTeamsExport),
	o(GET, "/v1/organizer/events/:code/tournaments", palaro.ActionOrders, (*Server).apiOrgTournaments, token),
	o(POST, "/v1/organizer/events/:code/tournaments", palaro.ActionManageEvents, (*Server).apiOrgSaveTournament, token),
	o(PATCH, "/v1/organizer/events/:code/tournaments/:tournament", palaro.ActionManageEvents, (*Server).apiOrgSaveTournament, token),
	o(GET, "/v1/organizer/events/:code/tournaments/:tournament/teams", palaro.ActionOrders, (*Server).apiOrgTeams, token),
	o(PATCH, "/v1/organizer/events/:code/tournaments/:tournament/teams/:team", palaro.ActionManageEvents, (*Server).apiOrgUpdateTeam, token),
	o(DELETE, "/v1/organizer/events/:code/tournaments/:tournament/teams/:team/players/:email", palaro.ActionManageEvents, (*Server).apiOrgRemovePlayer, token),
	o(GET, "/v1/organizer/events/:code/waitlist", palaro.ActionOrders, (*Server).apiOrgWaitlist, token),
	o(PATCH, "/v1/organizer/events/:code/waitlist", palaro.ActionManageEvents, (*Server).apiOrgWaitlistSettings, token),
	o(POST, "/v1/organizer/events/:code/waitlist/:entry/offer", palaro.ActionOrders, (*Server).apiOrgWaitlistOffer, token),

	// Every other path is a 404 page (or a JSON 404 under /v1/).
	r(NOTFOUND, "/*", (*Server).notFound, public),
}

// Methods of the route table; ANY matches every method, NOTFOUND is the catch-all.
const (
	GET      = http.MethodGet
	POST     = http.MethodPost
	PATCH    = http.MethodPatch
	DELETE   = http.MethodDelete
	ANY      = echo.RouteAny
	NOTFOUND = echo.RouteNotFound
)

// access says who may call a route.
type access string

// The accesses of the route table.
const (
	public    access = "public"
	signedIn  access = "signed-in"
	organizer access = "organizer"
	operator  access = "operator"
)

// route is one line of the route table.
type route struct {
	method, path string
	access       access
	// handler serves every route but the organizer ones; org serves those, given the caller.
	handler func(*Server, *echo.Context) error
	org     orgHandler
	// action is the palaro.Action* an organizer route needs.
	action string
	// limit is the route's per-IP limit; zero for none.
	limit limitRule
	// cached marks a public page: no session for anonymous visitors, kept by the page cache.
	cached bool
	// csrfExempt says why the route's POSTs take no CSRF token; "" when they take one.
	csrfExempt string
	// token lets an API token call the organizer route.
	token bool
	// needs reports whether the optional service the route needs is set (nil: it needs none).
	needs func(Services) bool
}

// routeOption sets a property of a route of the table.
type routeOption func(*route)

// r is a line of the route table for a handler that is not the organizer's.
func r(method, path string, h func(*Server, *echo.Context) error, a access, opts ...routeOption) route {
	rt := route{method: method, path: path, handler: h, access: a}
	for _, opt := range opts {
		opt(&rt)
	}
	return rt
}

// o is a line of the route table for an organizer route, which needs action.
func o(method, path, action string, h orgHandler, opts ...routeOption) route {
	rt := route{method: method, path: path, org: h, access: organizer, action: action}
	for _, opt := range opts {
		opt(&rt)
	}
	return rt
}

// Options of the route table.
var (
	cached routeOption = func(r *route) { r.cached = true }
	token  routeOption = func(r *route) { r.token = true }
)

// limit limits the route per IP address under rule.
func limit(rule limitRule) routeOption { return func(r *route) { r.limit = rule } }

// noCSRF exempts the route's POST requests from the CSRF check, for the reason why.
func noCSRF(why string) routeOption { return func(r *route) { r.csrfExempt = why } }

// ifPaymentPages registers the route only when Services.PaymentPages is set (the sandbox).
var ifPaymentPages routeOption = func(r *route) {
	r.needs = func(s Services) bool { return s.PaymentPages != nil }
}

// routeKey is how routeIndex finds a route: its method and its path pattern.
func routeKey(method, path string) string { return method + " " + path }

// routeIndex finds each line of routeTable by routeKey, built once.
var routeIndex = func() map[string]*route {
	m := make(map[string]*route, len(routeTable))
	for i := range routeTable {
		rt := &routeTable[i]
		k := routeKey(rt.method, rt.path)
		if _, dup := m[k]; dup {
			panic("handlers: the route table has " + k + " twice")
		}
		m[k] = rt
	}
	return m
}()

// routeOf returns the table's line of the route the request matched, or nil (no route matched:
// the catch-all's line is returned only for its own pattern).
func routeOf(c *echo.Context) *route {
	p := c.Path()
	if rt, ok := routeIndex[routeKey(c.Request().Method, p)]; ok {
		return rt
	}
	if rt, ok := routeIndex[routeKey(ANY, p)]; ok {
		return rt
	}
	return nil
}

// routes registers every line of the route table (the sandbox's only with the sandbox).
func (s *Server) routes() {
	for i := range routeTable {
		rt := &routeTable[i]
		if rt.needs != nil && !rt.needs(s.services) {
			continue
		}
		s.echo.Add(rt.method, rt.path, s.handlerOf(rt))
	}
}

// handlerOf is the Echo handler of a route: its handler behind the check of its access.
func (s *Server) handlerOf(rt *route) echo.HandlerFunc {
	switch rt.access {
	case organizer:
		return s.orgAccess(rt)
	case operator:
		return s.operatorOnly(func(c *echo.Context) error { return rt.handler(s, c) })
	}
	return func(c *echo.Context) error { return rt.handler(s, c) }
}

// notFound answers a path no route matches.
func (s *Server) notFound(*echo.Context) error { return errPageNotFound }

// paymentPages serves the payment sandbox's hosted checkout (Services.PaymentPages).
func (s *Server) paymentPages(c *echo.Context) error {
	s.services.PaymentPages.ServeHTTP(c.Response(), c.Request())
	return nil
}

// Route is one route of the table as tests and docs see it.
type Route struct {
	Method, Path string
	// Access is "public", "signed-in", "organizer" or "operator".
	Access string
	// Action is the organizer action the route needs ("" unless Access is "organizer").
	Action string
	// CSRFExempt says why the route's POSTs take no CSRF token ("" when they take one).
	CSRFExempt string
	// Limited reports a per-IP limit on the whole route; Cached a public page; Token a route an
	// API token may call.
	Limited, Cached, Token bool
}

// Routes returns every line of the route table, for the tests that walk the router.
func Routes() []Route {
	out := make([]Route, 0, len(routeTable))
	for _, rt := range routeTable {
		out = append(out, Route{Method: rt.method, Path: rt.path, Access: string(rt.access), Action: rt.action,
			CSRFExempt: rt.csrfExempt, Limited: rt.limit != limitRule{}, Cached: rt.cached, Token: rt.token})
	}
	return out
}
