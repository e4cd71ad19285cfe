package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"errors"
	"strings"
	"time"

	"palaro"
)

var _ palaro.TeamService = (*OrganizerService)(nil)

// ListTeam returns the organizations' members and pending invitations.
func (s *OrganizerService) ListTeam(ctx context.Context, orgIDs []int64) (_ []palaro.TeamMember, _ []palaro.Invitation, err error) {
	defer wrapErr(&err, "store: ListTeam")

	if len(orgIDs) == 0 {
		return nil, nil, nil
	}
	args, marks := int64Args(orgIDs)
	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer tx.Rollback()
	members, err := queryRows(ctx, tx, `SELECT o.id, o.name, u.id, u.email, trim(u.first_name || ' ' || u.last_name), m.role
		FROM organizer_members m JOIN organizers o ON o.id = m.organizer_id JOIN users u ON u.id = m.user_id
		WHERE m.organizer_id IN (`+marks+`) ORDER BY o.name, o.id, CASE m.role WHEN 'owner' THEN 0 ELSE 1 END, u.email`, args,
		func(r rowScanner) (m palaro.TeamMember, err error) {
			err = r.Scan(&m.OrganizationID, &m.OrganizationName, &m.UserID, &m.Email, &m.Name, &m.Role)
			return m, err
		})
	if err != nil {
		return nil, nil, err
	}
	invitations, err := queryRows(ctx, tx, `SELECT i.id, o.id, o.name, i.email, i.role, i.invited_by, i.expires_at
		FROM organizer_invitations i JOIN organizers o ON o.id = i.organizer_id
		WHERE i.organizer_id IN (`+marks+`) AND i.accepted_at IS NULL AND i.expires_at > ? ORDER BY i.id DESC`,
		append(args, formatTime(s.db.Now())), func(r rowScanner) (i palaro.Invitation, err error) {
			var expires sql.NullString
			if err := r.Scan(&i.ID, &i.OrganizationID, &i.OrganizationName, &i.Email, &i.Role, &i.InvitedBy, &expires); err != nil {
				return i, err
			}
			i.ExpiresAt, _ = parseTime(expires)
			return i, nil
		})
	if err != nil {
		return nil, nil, err
	}
	return members, invitations, nil
}

// Invite stores an invitation and queues its e-mail.
func (s *OrganizerService) Invite(ctx context.Context, orgID int64, email, role, invitedBy string) (err error) {
	defer wrapErr(&err, "store: Invite(%d)", orgID)

	addr, err := palaro.CheckEmail(email)
	if err != nil {
		return fieldErr(palaro.EINVALID, palaro.FieldEmail, palaro.ErrorMessage(err))
	}
	if role == palaro.MemberOwner || !palaro.ValidMemberRole(role) {
		return fieldErr(palaro.EINVALID, palaro.FieldRole, "Invite as manager, gate or booth.")
	}
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var name string
		var member bool
		err := tx.QueryRowContext(ctx, `SELECT o.name, EXISTS (SELECT 1 FROM organizer_members m JOIN users u ON u.id = m.user_id
		WHERE m.organizer_id = o.id AND u.email = ?) FROM organizers o WHERE o.id = ?`, addr, orgID).Scan(&name, &member)
		if errors.Is(err, sql.ErrNoRows) {
			return palaro.Errorf(palaro.ENOTFOUND, "Organization not found.")
		} else if err != nil {
			return err
		}
		if member {
			return fieldErr(palaro.ECONFLICT, palaro.FieldEmail, "This address already belongs to the team.")
		}
		b := make([]byte, 32)
		_, _ = rand.Read(b)
		token := base64.RawURLEncoding.EncodeToString(b)
		now := s.db.Now()
		if _, err := tx.ExecContext(ctx, `INSERT INTO organizer_invitations (token_hash, organizer_id, email, role, invited_by,
		created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)`, tokenHash(token), orgID, addr, role, invitedBy,
			formatTime(now), formatTime(now.Add(palaro.InvitationTTL))); err != nil {
			return err
		}
		if err := enqueue(ctx, tx, s.composer.TeamInvitation(name, role, invitedBy, addr, token), "", now); err != nil {
			return err
		}
		return nil
	})
}

// errInvitationGone answers a token that is unknown, used or expired.
var errInvitationGone = palaro.Errorf(palaro.ENOTFOUND, "This invitation is unknown, used or expired. Ask for a new one.")

// FindInvitation returns the live invitation of a link's token.
func (s *OrganizerService) FindInvitation(ctx context.Context, token string) (_ *palaro.Invitation, err error) {
	defer wrapErr(&err, "store: FindInvitation")

	var inv palaro.Invitation
	var expires string
	err = s.db.read.QueryRowContext(ctx, `SELECT i.id, i.organizer_id, o.name, i.email, i.role, i.invited_by, i.expires_at
		FROM organizer_invitations i JOIN organizers o ON o.id = i.organizer_id
		WHERE i.token_hash = ? AND i.accepted_at IS NULL AND i.expires_at > ?`, tokenHash(token), formatTime(s.db.Now())).
		Scan(&inv.ID, &inv.OrganizationID, &inv.OrganizationName, &inv.Email, &inv.Role, &inv.InvitedBy, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errInvitationGone
	} else if err != nil {
		return nil, err
	}
	inv.ExpiresAt, err = time.Parse(timeFormat, expires)
	return &inv, err
}

// AcceptInvitation adds the account to the invitation's organization when its e-mail is the invited one.
func (s *OrganizerService) AcceptInvitation(ctx context.Context, token string, userID int64) (_ *palaro.Membership, err error) {
	defer wrapErr(&err, "store: AcceptInvitation")

	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.Membership, error) {
		now := s.db.Now()
		var id int64
		var m palaro.Membership
		var invited, userEmail string
		err := tx.QueryRowContext(ctx, `SELECT i.id, i.organizer_id, o.name, i.role, o.status = 'approved', i.email
		FROM organizer_invitations i JOIN organizers o ON o.id = i.organizer_id
		WHERE i.token_hash = ? AND i.accepted_at IS NULL AND i.expires_at > ?`, tokenHash(token), formatTime(now)).
			Scan(&id, &m.OrganizationID, &m.OrganizationName, &m.Role, &m.Approved, &invited)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, errInvitationGone
		} else if err != nil {
			return nil, err
		}
		if err := tx.QueryRowContext(ctx, `SELECT email FROM users WHERE id = ?`, userID).Scan(&userEmail); err != nil {
			return nil, err
		}
		if !strings.EqualFold(userEmail, invited) {
			return nil, palaro.Errorf(palaro.EFORBIDDEN, "This invitation is for %s: sign in with that address.", invited)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO organizer_members (organizer_id, user_id, role, created_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (organizer_id, user_id) DO NOTHING`, m.OrganizationID, userID, m.Role, formatTime(now)); err != nil {
			return nil, err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE organizer_invitations SET accepted_at = ? WHERE id = ?`, formatTime(now), id); err != nil {
			return nil, err
		}
		return &m, nil
	})
}

// RemoveMember removes a person from an organization, never its last owner, and revokes the API
// tokens they created for it.
func (s *OrganizerService) RemoveMember(ctx context.Context, orgID, userID int64, actor string) (err error) {
	defer wrapErr(&err, "store: RemoveMember(%d)", orgID)

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var role string
		err := tx.QueryRowContext(ctx, `SELECT role FROM organizer_members WHERE organizer_id = ? AND user_id = ?`, orgID, userID).Scan(&role)
		if errors.Is(err, sql.ErrNoRows) {
			return palaro.Errorf(palaro.ENOTFOUND, "Member not found.")
		} else if err != nil {
			return err
		}
		if role == palaro.MemberOwner {
			var owners int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM organizer_members WHERE organizer_id = ? AND role = 'owner'`, orgID).Scan(&owners); err != nil {
				return err
			}
			if owners <= 1 {
				return palaro.Errorf(palaro.EINVALID, "An organization keeps at least one owner.")
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM organizer_members WHERE organizer_id = ? AND user_id = ?`, orgID, userID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE api_tokens SET revoked_at = ? WHERE organizer_id = ? AND created_by_user_id = ?
		AND revoked_at IS NULL`, formatTime(s.db.Now()), orgID, userID); err != nil {
			return err
		}
		return nil
	})
}
