package palaro

import "slices"

// Organization member roles (PRODUCT.md "Roles").
const (
	MemberOwner   = "owner"   // everything, the team included
	MemberManager = "manager" // everything but the team
	MemberGate    = "gate"    // check-in and box office
	MemberBooth   = "booth"   // activities and prize claims
)

// Actions a member or an API token may be allowed to take in an organization.
const (
	ActionViewEvents   = "view_events"   // see the organization's event list
	ActionManageEvents = "manage_events" // create and edit events, ticket types, add-ons and promo codes
	ActionOrders       = "orders"        // search orders, exports, refunds, the sales dashboard
	ActionTeam         = "team"          // invite and remove members
	ActionTokens       = "tokens"        // create and revoke API tokens
	ActionCheckIn      = "check_in"      // the gate
	ActionActivities   = "activities"    // booth activities and prizes
	ActionWebhooks     = "webhooks"      // register, pause and remove webhook endpoints
)

// roleActions lists what each role may do.
var roleActions = map[string][]string{
	MemberOwner:   {ActionViewEvents, ActionManageEvents, ActionOrders, ActionTeam, ActionTokens, ActionCheckIn, ActionActivities, ActionWebhooks},
	MemberManager: {ActionViewEvents, ActionManageEvents, ActionOrders, ActionTokens, ActionCheckIn, ActionActivities, ActionWebhooks},
	MemberGate:    {ActionViewEvents, ActionCheckIn},
	MemberBooth:   {ActionViewEvents, ActionActivities},
}

// ValidMemberRole reports whether role is a member role.
func ValidMemberRole(role string) bool { _, ok := roleActions[role]; return ok }

// ValidTokenRole reports whether an API token may carry role (manager or gate).
func ValidTokenRole(role string) bool { return role == MemberManager || role == MemberGate }

// RoleAllows reports whether a member with role may take action.
func RoleAllows(role, action string) bool { return slices.Contains(roleActions[role], action) }

// TokenRole is the role an API token acts with: its own, narrowed to what its creator's current
// member role allows (a manager token of a creator now at the gate acts as gate), or "" when
// no role fits within both (the token then works for nothing).
func TokenRole(tokenRole, creatorRole string) string {
	within := func(role, limit string) bool {
		for _, a := range roleActions[role] {
			if !RoleAllows(limit, a) {
				return false
			}
		}
		return roleActions[role] != nil
	}
	for _, r := range []string{tokenRole, creatorRole, MemberGate, MemberBooth} {
		if within(r, tokenRole) && within(r, creatorRole) {
			return r
		}
	}
	return ""
}
