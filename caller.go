package palaro

import "fmt"

// Caller is who calls the organizer console or API: a signed-in member or an API token.
type Caller struct {
	UserID  int64
	Email   string
	TokenID int64
	// Memberships are the organizations the caller acts for; a token has exactly one.
	Memberships []Membership
}

// Actor names the caller in the audit log.
func (c *Caller) Actor() string {
	if c.TokenID != 0 {
		return fmt.Sprintf("API token #%d", c.TokenID)
	}
	return c.Email
}

// Role returns the caller's role in an approved organization, or "" when not a member of it.
func (c *Caller) Role(orgID int64) string {
	for _, m := range c.Memberships {
		if m.OrganizationID == orgID && m.Approved {
			return m.Role
		}
	}
	return ""
}

// Can reports whether the caller may take action in the organization.
func (c *Caller) Can(orgID int64, action string) bool { return RoleAllows(c.Role(orgID), action) }

// Approved returns the caller's memberships of approved organizations.
func (c *Caller) Approved() []Membership {
	var out []Membership
	for _, m := range c.Memberships {
		if m.Approved {
			out = append(out, m)
		}
	}
	return out
}

// OrganizationIDs returns the approved organizations where the caller may take action.
func (c *Caller) OrganizationIDs(action string) []int64 {
	var ids []int64
	for _, m := range c.Approved() {
		if RoleAllows(m.Role, action) {
			ids = append(ids, m.OrganizationID)
		}
	}
	return ids
}

// CheckEventAccess returns nil when the caller may take action on an event of organization orgID:
// ENOTFOUND when the event is not one of the caller's organizations' (nothing leaks about it),
// EFORBIDDEN when the caller's role there does not allow the action.
func (c *Caller) CheckEventAccess(orgID int64, action string) error {
	role := c.Role(orgID)
	switch {
	case role == "":
		return Errorf(ENOTFOUND, "Event not found.")
	case !RoleAllows(role, action):
		return Errorf(EFORBIDDEN, "Your role in this organization does not allow this.")
	}
	return nil
}
